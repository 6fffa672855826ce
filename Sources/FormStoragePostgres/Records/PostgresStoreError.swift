import FormBasics
import FormCore

/// A form's fields, or a table, that do not match the PostgreSQL database.
public struct PostgresStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        case unknownTable, unknownColumn, noPrimaryKey, badKey
        /// The server would store a number or a time other than the one given (its column's precision).
        case notHeld
        /// A write a trigger dropped without an error (a `BEFORE` trigger returning NULL).
        case ignoredWrite
    }
    public let reason: Reason
    public let message: String
    public var description: String { message }

    static func unknownTable(_ table: String) -> PostgresStoreError {
        PostgresStoreError(reason: .unknownTable, message: "no table named '\(table)' in the database")
    }

    static func unknownColumn(_ column: String, form: String, table: String) -> PostgresStoreError {
        PostgresStoreError(reason: .unknownColumn,
                           message: "form \(form): field '\(column)' is bound to column '\(column)', which table '\(table)' lacks")
    }

    static func noPrimaryKey(_ table: String) -> PostgresStoreError {
        PostgresStoreError(reason: .noPrimaryKey,
                           message: "'\(table)' has no primary key to find records by; a spec may name key columns as primaryKey")
    }

    static func keyNotUnique(_ key: [String], form: String, table: String) -> PostgresStoreError {
        PostgresStoreError(reason: .badKey, message: "form \(form): its primary key (\(key.joined(separator: ", "))) "
            + "is neither the primary key of '\(table)' nor a UNIQUE index of it, so it may name several rows")
    }

    /// A write that would have changed other than exactly one row; it was rolled back.
    /// None, of a row the write had found: a trigger dropped it (a `BEFORE` trigger returning NULL).
    static func notOneRow(_ count: Int, table: String, write: String? = nil) -> PostgresStoreError {
        if count == 0, let write {
            return PostgresStoreError(reason: .ignoredWrite, message: "a trigger on '\(table)' ignored the \(write) "
                                          + "(it returned NULL): nothing was written")
        }
        return PostgresStoreError(reason: .badKey, message: "the key names \(count) rows of '\(table)', not one: nothing was written")
    }

    /// A row the role reads but row-level security does not let it `write` (change, delete).
    static func refusedByRowSecurity(_ write: String, table: String) -> PostgresStoreError {
        PostgresStoreError(reason: .badKey, message: "the row-level security of '\(table)' does not let this role "
                               + "\(write) the record: nothing was written")
    }

    /// The column would hold `stored` where `given` was written: the write was rolled back.
    static func notHeld(_ field: String, given: FieldValue, stored: FieldValue) -> PostgresStoreError {
        // Times to the microsecond: to the millisecond, `.1234` cut to `.123` read the same on both sides.
        func text(_ value: FieldValue) -> String {
            if case .date(let date) = value { return ISO8601.microsecondDateTime(date) }
            return RecordKey.text(of: value)
        }
        return PostgresStoreError(reason: .notHeld, message: "\(field): \(text(given)) would be stored as "
                                      + "\(text(stored)), what its column holds: nothing was saved")
    }

    static func badKey(_ message: String) -> PostgresStoreError {
        PostgresStoreError(reason: .badKey, message: message)
    }
}
