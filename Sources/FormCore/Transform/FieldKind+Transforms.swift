extension FieldKind {
    /// The input format a date-like kind uses when the field names none.
    /// Times keep their seconds, so that a value shown and typed back (or
    /// left alone) is the value stored; input without them (`HH:mm`) is
    /// still accepted (see `DateText.parse`).
    public var defaultDateFormat: String? {
        switch self {
        case .date: return "MM/dd/yyyy"
        case .time: return "HH:mm:ss"
        case .datetime: return "yyyy-MM-dd HH:mm:ss"
        default: return nil
        }
    }

    /// The kind's own transform chain, run before a field's `transforms`.
    ///
    /// ```swift
    /// FieldKind.email.defaultTransforms()              // [.trim, .lowercase]
    /// FieldKind.date.defaultTransforms(format: "yyyy") // [.date(format: "yyyy")]
    /// ```
    /// - parameter format: a date format overriding the kind's default.
    public func defaultTransforms(format: String? = nil) -> [Transform] {
        switch self {
        case .text, .name, .address, .url, .zip, .multiline: return [.trim]
        case .email: return [.trim, .lowercase]
        case .phone: return [.phone]
        case .state: return [.trim, .uppercase]
        case .integer: return [.integer]
        case .decimal: return [.decimal]
        case .date, .time, .datetime: return [.date(format: format ?? defaultDateFormat ?? "MM/dd/yyyy")]
        case .bool: return [.yesNo]
        case .choice: return [.choiceLabel]
        case .multichoice: return [.list, .choiceLabel]
        case .password, .label, .comment, .action: return []
        }
    }
}
