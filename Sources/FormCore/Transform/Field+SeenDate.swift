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
    public func keepingStoredDate(_ given: FieldValue, stored: FieldValue, typed: Bool) -> FieldValue {
        guard case .date(let new) = given, case .date(let old) = stored, new != old else { return given }
        let shown: (Date) -> String = typed ? { format(.date($0)) } : { [kind] in ISO8601.text($0, kind: kind) }
        // The same text, and nothing in `given` that the text could not say.
        guard shown(new) == shown(old) else { return given }
        let readBack = typed ? (try? parse(shown(new)).get()) : ISO8601.parse(shown(new)).map(FieldValue.date)
        return readBack == given ? stored : given
    }
}
