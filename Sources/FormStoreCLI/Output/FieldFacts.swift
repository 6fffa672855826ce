import FormCore

/// A field's checks in words, as `formstore form` and the editor document
/// list them: `at most 40 characters`, `from 1 to 10`.
enum FieldFacts {
    /// What a field holds, in a word: its kind, or `bytes` for a BLOB column's
    /// field, whose kind is the text its hex is typed as.
    static func kind(_ field: Field) -> String {
        field.transforms.contains(.hex) ? "bytes" : field.kind.rawValue
    }

    static func rules(_ field: Field) -> [String] {
        field.rules.compactMap { rule in
            switch rule {
            case .minLength(let n): return "at least \(n) characters"
            case .maxLength(let n): return "at most \(n) characters"
            case .pattern(_, let name): return "must match \(name ?? "a pattern")"
            case .email: return "an email address"
            case .range(let min, let max):
                switch (min, max) {
                case let (lo?, hi?): return "from \(number(lo)) to \(number(hi))"
                case let (lo?, nil): return "at least \(number(lo))"
                case let (nil, hi?): return "at most \(number(hi))"
                default: return nil
                }
            case .equalTo(let other): return "same as \(other)"
            case .maxFutureDays(let days): return days == 0 ? "not in the future" : "at most \(days) days ahead"
            case .custom(let custom): return "rule \(custom.code)"
            case .required, .oneOfChoices: return nil
            }
        }
    }

    /// A form rule in words: `Password 2 equals Password`, `rule stockLimit (on Stock)`.
    static func rule(_ rule: FormRule, in form: Form) -> String {
        let label = { (key: String) in FieldDisplay.label(key, in: form) }
        switch rule {
        case .fieldsEqual(let key, let other, _, _): return "\(label(key)) equals \(label(other))"
        case .custom(let custom): return "rule \(custom.code)" + (custom.field.map { " (on \(label($0)))" } ?? "")
        }
    }

    private static func number(_ d: Double) -> String {
        d.rounded() == d && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    }
}
