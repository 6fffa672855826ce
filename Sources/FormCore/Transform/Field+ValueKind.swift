import FormBasics
public import FoundationEssentials

extension Field {
    /// `value` as this field's kind holds it, for a model value given directly
    /// (`FormSession.set(_:value:)`), which no transformer parses: a lossless
    /// conversion is made (`.int(2)` for a decimal is `.double(2)`, `.double(2)`
    /// for an integer is `.int(2)`, `0`/`1` for a bool), a value of another kind
    /// is refused here rather than by storage at save. `.null` is always taken;
    /// so are bytes in a text-like field (what a BLOB column holds), and
    /// numbers in one that reads hex as bytes (a BLOB or untyped column).
    ///
    /// ```swift
    /// Field(key: "title").coerce(.int(42), messages: MessageOverrides())  // throws "Title cannot hold a number"
    /// ```
    /// - throws: a `FieldError` with the code `kind`.
    public func coerce(_ value: FieldValue, messages: MessageOverrides) throws(FieldError) -> FieldValue {
        if value == .null { return value }
        switch (kind, value) {
        case (_, .text) where kind.holdsText, (_, .data) where kind.holdsText:
            return value
        case (_, .text(let text)) where text.isEmpty:
            // Empty text is a value in any column, distinct from NULL (docs/fidelity.md), as import keeps it.
            return value
        case (.integer, .int), (.decimal, .double), (.bool, .bool), (.multichoice, .list),
             (.date, .date), (.time, .date), (.datetime, .date):
            return value
        case (.integer, .double(let d)):
            if let i = value.intValue, Double(i) == d { return .int(i) }
        case (.decimal, .int(let i)):
            // Lossless up to 2^53; past it the double would be another number, so the integer is kept.
            return .decimal(i)
        case (.bool, .int(let i)) where i == 0 || i == 1:
            return .bool(i == 1)
        case (.choice, .list):
            // One choice, not several: a list's items may each be a choice, and it was saved as the list.
            break
        case (.choice, _):
            // Any value may be a choice's; validation says whether it is one.
            return value
        case (.multichoice, _) where choices.isEmpty:
            return value
        case (_, .int) where kind.holdsText && readsHexAsBytes, (_, .double) where kind.holdsText && readsHexAsBytes:
            // A BLOB or untyped column holds a number given as such as the number (`Field.readsHexAsBytes`).
            return value
        default:
            break
        }
        let message = MessageCatalog.english.resolve(code: "kind", field: self, overrides: messages, ruleMessage: nil,
                                                     parameters: ["kind": Field.kindName(value)])
        throw FieldError(field: key, code: "kind", message: message)
    }

    /// Why `date`, given as `text` (ISO 8601, a machine's form), does not
    /// fit this field: a date field holds a day and a time field a time of
    /// day, and what would be cut off is refused, not dropped. `nil` when it fits.
    ///
    /// A date and time field refuses a bare time (which would be a time on
    /// 1970-01-01) unless it holds one already (`stored` on that day: a
    /// DATETIME column keeping `10:00`); every field refuses a fraction of a
    /// second finer than a microsecond, which a date cannot hold.
    public func whatWouldBeCutOff(_ date: Date, given text: String, stored: FieldValue) -> FieldError? {
        let seconds = date.timeIntervalSince1970
        let day = (seconds / 86_400).rounded(.down)
        if kind == .date && seconds != day * 86_400 {
            return FieldError(field: key, code: "date", message: "\(label) holds a day: \(text.quoted) has a time of day too")
        }
        if kind == .time && day != 0 {
            return FieldError(field: key, code: "date", message: "\(label) holds a time of day: \(text.quoted) has a day too")
        }
        if kind == .datetime, day == 0, ISO8601.parseTime(text.trimmingSpaces()) != nil {
            let heldBareTime = if case .date(let held) = stored { held.timeIntervalSince1970 < 86_400 && held.timeIntervalSince1970 >= 0 } else { false }
            if !heldBareTime {
                return FieldError(field: key, code: "date",
                                  message: "\(label) holds a date and time: \(text.quoted) has no day (type the date too)")
            }
        }
        if DateText.fractionDigits(text) > 6 { return fractionTooFine() }
        return nil
    }

    /// The error of a time typed finer than a microsecond.
    func fractionTooFine() -> FieldError {
        FieldError(field: key, code: "date",
                   message: MessageCatalog.fill(MessageCatalog.english.template(for: "date.fraction"), with: ["label": label]))
    }

    /// What a value is, as a message names it.
    private static func kindName(_ value: FieldValue) -> String {
        switch value {
        case .null: return "nothing"
        case .bool: return "yes or no"
        case .int, .double: return "a number"
        case .text: return "text"
        case .date: return "a date"
        case .list: return "a list"
        case .data: return "bytes"
        }
    }
}
