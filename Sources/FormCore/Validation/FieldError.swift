/// One validation failure: a stable code, the message shown to a person, and
/// the field it blames (`nil` for the form as a whole).
public struct FieldError: Error, Sendable, Hashable, CustomStringConvertible {
    public var field: String?
    public var code: String
    public var message: String

    public init(field: String?, code: String, message: String) {
        self.field = field
        self.code = code
        self.message = message
    }

    public var description: String {
        if let field { return "\(field): \(message)" }
        return message
    }
}
