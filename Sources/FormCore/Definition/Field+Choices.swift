extension Field {
    /// The choice that `input` names: by its value, or by its label (any case).
    /// Never by position: with choices `0, 1, 2, 5`, an input of `3` names none,
    /// and `2` is the choice whose value is 2. (A numbered menu is the prompt's
    /// business, which turns a number into a choice before the session sees it.)
    ///
    /// ```swift
    /// let prio = Field(key: "prio", kind: .choice).choices([0, 1, 2, 5].map { (FieldValue.int($0), "\($0)") })
    /// prio.choice(matching: .text("2"))?.value   // .int(2)
    /// prio.choice(matching: .double(5))?.value   // .int(5)
    /// prio.choice(matching: .text("3"))          // nil
    /// ```
    ///
    /// A value matches first exactly, then by its plain text (`"2"` is `.int(2)`),
    /// then as a number (`2.0` is `.int(2)`); only then are labels tried, so a
    /// value always wins over another choice's label. Disabled choices match too:
    /// validation says they are not allowed.
    public func choice(matching input: FieldValue) -> Choice? {
        if let exact = choices.first(where: { $0.value == input }) { return exact }
        switch input {
        case .int, .double:
            let text = FieldValue.plainText(input)
            return choices.first { Field.sameNumber($0.value, input) }
                ?? choices.first { FieldValue.plainText($0.value) == text }
        case .text(let raw):
            let text = String.trimmingWhitespaceAndNewlines(raw)
            guard !text.isEmpty else { return nil }
            let folded = text.lowercased()
            if let byText = choices.first(where: { FieldValue.plainText($0.value).lowercased() == folded }) {
                return byText
            }
            if let number = Double(text), number.isFinite,
               let byNumber = choices.first(where: { Field.sameNumber($0.value, .double(number)) }) {
                return byNumber
            }
            return choices.first { $0.label.lowercased() == folded }
        default:
            return nil
        }
    }

    /// `value` with each item that names a choice replaced by that choice's own
    /// value (`.double(2)` → `.int(2)`, a label → its value); an item that names
    /// none is kept as it is, for validation to report.
    func choiceValue(_ value: FieldValue) -> FieldValue {
        guard !choices.isEmpty else { return value }
        if case .list(let items) = value, kind == .multichoice {
            return .list(items.map { choice(matching: $0)?.value ?? $0 })
        }
        if value.isEmpty { return value }
        return choice(matching: value)?.value ?? value
    }

    /// Two numbers that are equal as numbers (`.int(2)` and `.double(2.0)`); never a bool or text.
    private static func sameNumber(_ a: FieldValue, _ b: FieldValue) -> Bool {
        switch (a, b) {
        case (.int(let x), .int(let y)): return x == y
        case (.int(let x), .double(let y)), (.double(let y), .int(let x)):
            // Compared exactly: 2^53 + 1 is not the double nearest to it.
            return y.rounded() == y && abs(y) < 9.2e18 && Int64(y) == x
        case (.double(let x), .double(let y)): return x == y
        default: return false
        }
    }
}
