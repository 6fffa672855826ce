import CSQLite

/// A column of the statement's current row, read in place: text and BLOB
/// bytes point into SQLite's own buffer, so nothing is copied or decoded.
/// An export writes a million rows through these with no value built per cell.
///
/// ```swift
/// while try statement.step() {
///     if case .text(let bytes) = statement.cell(at: 0) { output.append(contentsOf: bytes) }
/// }
/// ```
///
/// The bytes are valid only until the statement steps, resets or reads the
/// same column another way (<https://www.sqlite.org/c3ref/column_blob.html>):
/// use them at once, never keep them. Text is as stored, which SQLite does not
/// check is valid UTF-8.
public enum DatabaseCell {
    case null
    case integer(Int64)
    case real(Double)
    case text(UnsafeBufferPointer<UInt8>)
    case blob(UnsafeRawBufferPointer)
}

@available(*, unavailable)
extension DatabaseCell: Sendable {}

extension Statement {
    /// The 0-based column of the current row, in place (see `DatabaseCell`).
    public func cell(at index: Int) -> DatabaseCell {
        // The column's value is found once and then read: every
        // `sqlite3_column_*` call checks the statement, finds the column and
        // looks for a failed allocation again, some 60 instructions each, two
        // or three per column of a 20-column load (issue 14). A connection is
        // used by one thread at a time, as the unprotected value this returns
        // requires (<https://www.sqlite.org/c3ref/column_blob.html>).
        guard let value = sqlite3_column_value(pointer, Int32(index)) else { return .null }
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT:
            return .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            // Text first, then its byte count: the order SQLite documents.
            let text = sqlite3_value_text(value)
            let count = Int(sqlite3_value_bytes(value))
            return .text(UnsafeBufferPointer(start: count > 0 ? text : nil, count: count > 0 ? count : 0))
        case SQLITE_BLOB:
            let bytes = sqlite3_value_blob(value)
            let count = Int(sqlite3_value_bytes(value))
            return .blob(UnsafeRawBufferPointer(start: count > 0 ? bytes : nil, count: count > 0 ? count : 0))
        default:
            return .null
        }
    }
}
