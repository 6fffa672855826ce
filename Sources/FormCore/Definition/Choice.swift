/// One option of a `choice` or `multichoice` field: the value the model holds
/// and the label a person sees.
public struct Choice: Sendable, Hashable {
    public var value: FieldValue
    public var label: String
    public var isDisabled: Bool

    public init(_ value: FieldValue, label: String? = nil, disabled: Bool = false) {
        self.value = value
        self.label = label ?? Choice.defaultLabel(for: value)
        self.isDisabled = disabled
    }

    /// The value as plain text (`2`, `2.5`, `yes`): typed, it names this choice
    /// by its value (see `Field.choice(matching:)`).
    public var valueText: String { FieldValue.plainText(value) }

    public static func defaultLabel(for value: FieldValue) -> String {
        switch value {
        case .text(let s): return s
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .bool(let b): return b ? "Yes" : "No"
        default: return ""
        }
    }
}
