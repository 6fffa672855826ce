/// A check on one field's model value. Each failure has an error code
/// (`Rule.code`) whose message comes from the message catalog unless the
/// field, its kind or the form overrides it.
public enum Rule: Sendable, Hashable {
    case required
    case minLength(Int)
    case maxLength(Int)
    /// A regular expression the whole text must match; `name` is used in messages.
    case pattern(String, name: String? = nil)
    case email
    case range(min: Double?, max: Double?)
    /// The value (every value, for a multichoice) must be one of the enabled choices.
    case oneOfChoices
    /// Equal to another field's value (a repeated password).
    case equalTo(String)
    /// Dates at most this many days in the future (iSwiftForm's limit).
    case maxFutureDays(Int)
    case custom(CustomRule)

    /// The error code a failure of this rule reports.
    public var code: String {
        switch self {
        case .required: return "required"
        case .minLength: return "minLength"
        case .maxLength: return "maxLength"
        case .pattern: return "pattern"
        case .email: return "email"
        case .range: return "range"
        case .oneOfChoices: return "choice"
        case .equalTo: return "equalTo"
        case .maxFutureDays: return "maxFutureDays"
        case .custom(let rule): return rule.code
        }
    }
}

/// A rule written as a closure. Two custom rules are equal when their codes are:
/// the code names the rule.
public struct CustomRule: Sendable, Hashable {
    public let code: String
    public let message: String?
    /// Returns `false` when the value fails.
    public let check: @Sendable (FieldValue) -> Bool

    public init(code: String, message: String? = nil, check: @escaping @Sendable (FieldValue) -> Bool) {
        self.code = code
        self.message = message
        self.check = check
    }

    public static func == (a: CustomRule, b: CustomRule) -> Bool { a.code == b.code && a.message == b.message }
    public func hash(into h: inout Hasher) { h.combine(code) }
}

/// A rule across fields. It blames one field (`field`), or the form when `nil`.
public enum FormRule: Sendable, Hashable {
    /// `field` must equal `other`; the error blames `field` (PAYFormBuilder's
    /// "Please enter the same password again" on the repeated password).
    case fieldsEqual(String, other: String, code: String = "mismatch", message: String? = nil)
    case custom(CustomFormRule)

    /// The fields this rule names: both of `fieldsEqual`, the blamed field of a
    /// custom rule. A rule naming none (a custom rule blaming the form) may read
    /// any value, so it is checked on every save.
    public var fields: [String] {
        switch self {
        case .fieldsEqual(let key, let other, _, _): return [key, other]
        case .custom(let custom): return custom.field.map { [$0] } ?? []
        }
    }
}

/// A cross-field rule written as a closure over the current model values.
public struct CustomFormRule: Sendable, Hashable {
    public let code: String
    public let field: String?
    public let message: String?
    /// Returns `false` when the values fail.
    public let check: @Sendable ([String: FieldValue]) -> Bool

    public init(code: String, field: String?, message: String? = nil,
                check: @escaping @Sendable ([String: FieldValue]) -> Bool) {
        self.code = code
        self.field = field
        self.message = message
        self.check = check
    }

    public static func == (a: CustomFormRule, b: CustomFormRule) -> Bool {
        a.code == b.code && a.field == b.field && a.message == b.message
    }
    public func hash(into h: inout Hasher) { h.combine(code); h.combine(field) }
}
