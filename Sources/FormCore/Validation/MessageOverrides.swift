/// Message overrides by error code, form-wide and per field kind. A field's own
/// overrides (`Field.messages`) win over its kind's, which win over the form's,
/// which win over the English defaults of `MessageCatalog`.
public struct MessageOverrides: Sendable, Hashable {
    public var form: [String: String]
    public var kinds: [FieldKind: [String: String]]

    public init(form: [String: String] = [:], kinds: [FieldKind: [String: String]] = [:]) {
        self.form = form
        self.kinds = kinds
    }
}
