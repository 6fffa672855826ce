public import FormBasics
public import FoundationEssentials

/// FormStore's ISO-8601 text, named as FormCore's: it lives in FormBasics so
/// the SQLite layer can write dates without importing FormCore, and this name
/// shadows it for every file that imports FormCore.
public typealias ISO8601 = FormBasics.ISO8601

extension ISO8601 {
    /// A date as JSON carries it, by the kind of its field: a date field as
    /// `2024-01-31`, a time as `13:45:00`, else `2024-01-31T13:45:00Z`, in
    /// UTC; a fraction of a second when there is one, to the millisecond or,
    /// where the value holds one (PostgreSQL, a SQLite text), the microsecond.
    public static func text(_ date: Date, kind: FieldKind?) -> String {
        let micros = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        let fraction = (micros % 1_000_000 + 1_000_000) % 1_000_000
        let digits = fraction == 0 ? "" : fraction % 1000 == 0 ? pad(fraction / 1000, 3) : pad(fraction, 6)
        let whole = Date(timeIntervalSince1970: Double((micros - fraction) / 1_000_000))
        switch kind {
        case .date: return ISO8601.date(date)
        case .time: return ISO8601.time(whole) + (digits.isEmpty ? "" : "." + digits)
        default:
            guard !digits.isEmpty else { return ISO8601.shortDateTime(whole) }
            return String(ISO8601.shortDateTime(whole).dropLast()) + "." + digits + "Z"
        }
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
