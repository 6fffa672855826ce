public import FormBasics
public import FoundationEssentials

/// FormStore's ISO-8601 text, named as FormCore's: it lives in FormBasics so
/// the SQLite layer can write dates without importing FormCore, and this name
/// shadows it for every file that imports FormCore.
public typealias ISO8601 = FormBasics.ISO8601

extension ISO8601 {
    /// A date as JSON carries it, by the kind of its field: a date field as
    /// `2024-01-31`, a time as `13:45:00`, else `2024-01-31T13:45:00Z` (with
    /// milliseconds when there are any), in UTC.
    public static func text(_ date: Date, kind: FieldKind?) -> String {
        switch kind {
        case .date: return ISO8601.date(date)
        case .time: return ISO8601.time(date)
        default: return ISO8601.shortDateTime(date)
        }
    }
}
