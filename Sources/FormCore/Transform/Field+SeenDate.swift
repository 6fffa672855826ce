public import FoundationEssentials
import FormBasics

extension Field {
    /// The stored value to keep where `given`, a date, is `stored` as it was
    /// shown: a date column read back from `show`'s JSON or typed back as
    /// displayed is no change, though what was shown left out what the
    /// column holds (the time of day of a DATE column kept as Unix time, the
    /// microseconds of `10:00:00.123456`). Else `given`.
    ///
    /// - parameter typed: `given` was parsed from text typed in the field's
    ///   display format (`Field.format`); else from JSON (`ISO8601.text(_:kind:)`).
    ///
    /// A changed date keeps the part the field does not show: a date field's
    /// new day keeps the time of day its column held there (`2024-03-05
    /// 10:00:00` set to the 6th is `2024-03-06 10:00:00`), a time field's new
    /// time the day (`2024-01-02 08:00:00` set to 09:00 is `2024-01-02 09:00:00`).
    public func keepingStoredDate(_ given: FieldValue, stored: FieldValue, typed: Bool) -> FieldValue {
        guard case .date(let new) = given, case .date(let old) = stored, new != old else { return given }
        let shown: (Date) -> String = typed ? { format(.date($0)) } : { [kind] in ISO8601.text($0, kind: kind) }
        // The same text, and nothing in `given` that the text could not say.
        guard shown(new) == shown(old) else { return .date(keepingHiddenPart(of: old, in: new)) }
        let readBack = typed ? (try? parse(shown(new)).get()) : ISO8601.parse(shown(new)).map(FieldValue.date)
        return readBack == given ? stored : given
    }

    /// `new` with the part of `old` this field's kind does not show, where
    /// `new` has none of its own (a day at midnight, a time on 1970-01-01).
    private func keepingHiddenPart(of old: Date, in new: Date) -> Date {
        let day: Double = 86_400
        let (newDay, newTime) = Self.split(new.timeIntervalSince1970)
        let (oldDay, oldTime) = Self.split(old.timeIntervalSince1970)
        switch kind {
        case .date where newTime == 0 && oldTime != 0: return Date(timeIntervalSince1970: newDay * day + oldTime)
        case .time where newDay == 0 && oldDay != 0: return Date(timeIntervalSince1970: oldDay * day + newTime)
        default: return new
        }
    }

    /// Whole days since 1970 (rounded down) and the seconds into the day.
    private static func split(_ seconds: Double) -> (day: Double, time: Double) {
        let day = (seconds / 86_400).rounded(.down)
        return (day, seconds - day * 86_400)
    }
}
