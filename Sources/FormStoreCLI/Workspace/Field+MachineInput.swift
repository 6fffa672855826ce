import FormBasics
import FoundationEssentials
import FormCore
import FormStorage

extension Field {
    /// Whether this field holds a date, a time or both.
    var isDateLike: Bool { kind.isDateLike }

    /// Parses text as a person types it into this field, or, for a date, time
    /// or datetime that does not parse so, in the ISO-8601 form that `export`
    /// writes and SQLite stores (`1990-04-01`, `13:45:00`, `2024-01-31T13:45:00Z`):
    /// an export imports back, and a script may pass either.
    func parseInput(_ text: String, in form: Form) -> Result<FieldValue, FieldError> {
        let typed = parse(text, in: form)
        guard case .failure = typed, let date = isoDate(text) else { return typed }
        return .success(.date(date))
    }

    /// The date of an ISO-8601 text, for a date-like field.
    func isoDate(_ text: String) -> Date? {
        guard isDateLike else { return nil }
        let trimmed = text.trimmingSpaces()
        guard case .date(let date) = StorageCoding(kind: kind).decode(.text(trimmed)) else { return nil }
        return date
    }
}
