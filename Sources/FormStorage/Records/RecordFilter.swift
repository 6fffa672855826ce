public import FormCore

/// One test of a query on a stored field (or a key column).
///
/// ```swift
/// RecordFilter(field: "status", value: "open")                       // status IS 'open'
/// RecordFilter(field: "age", test: .compare(.greaterOrEqual, .int(30)))
/// RecordFilter(field: "created_at", test: .compare(.equal, .date(date)))  // any stored form of that instant
/// RecordFilter.isEmpty("notes")                                      // notes IS NULL OR notes = ''
/// ```
public struct RecordFilter: Sendable, Hashable {
    public enum Test: Sendable, Hashable {
        /// The stored value equals the model value, encoded through the field's
        /// storage coding (`.null` matches NULL). Same as `.compare(.equal, value)`.
        case equals(FieldValue)
        /// Compares the stored value with a model value. A date, time or
        /// date-time field compares instants whatever form each row holds its
        /// date in (text layouts, epochs, Julian days); `.notEqual` also
        /// matches NULL (SQL's `IS NOT`).
        case compare(Comparison, FieldValue)
        /// The stored value, as text, contains this text (ASCII letters in any case).
        case contains(String)
        /// NULL or empty text: what a person means by a field left blank.
        case isEmpty
        case isNull
        case isNotNull
    }

    /// How `.compare` compares.
    public enum Comparison: String, Sendable, Hashable, CaseIterable {
        case equal = "="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    /// A stored field's key, or a key column.
    public var field: String
    public var test: Test

    public init(field: String, value: FieldValue) {
        self.field = field
        self.test = .equals(value)
    }

    public init(field: String, test: Test) {
        self.field = field
        self.test = test
    }

    public static func isEmpty(_ field: String) -> RecordFilter {
        RecordFilter(field: field, test: .isEmpty)
    }
}
