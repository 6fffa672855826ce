import FormBasics
import FoundationEssentials

/// One fetched row: column names and their values, in the statement's column order.
///
/// ```swift
/// let row = try conn.fetchOne("SELECT id, name FROM person WHERE id = ?", [1])
/// let name: String = try row!.value("name")
/// ```
public struct Row: Sendable, Hashable {
    public let columnNames: [String]
    public let values: [DatabaseValue]

    public init(columnNames: [String], values: [DatabaseValue]) {
        precondition(columnNames.count == values.count, "a row needs one value per column")
        self.columnNames = columnNames
        self.values = values
    }

    public var count: Int { values.count }

    /// The value at a 0-based column index.
    public subscript(index: Int) -> DatabaseValue { values[index] }

    /// The value of the first column with this name (case-insensitive, as SQLite), if any.
    public subscript(name: String) -> DatabaseValue? {
        index(of: name).map { values[$0] }
    }

    /// A converted value at a 0-based column index.
    ///
    /// - throws: `DatabaseError` (`SQLITE_MISMATCH`) when the value does not convert.
    public func value<T: DatabaseValueConvertible>(at index: Int, as type: T.Type = T.self) throws -> T {
        try Self.convert(values[index], column: columnNames[index])
    }

    /// A converted value of a named column.
    ///
    /// - throws: `DatabaseError` (`SQLITE_MISMATCH`) when the column is missing or the value does not convert.
    public func value<T: DatabaseValueConvertible>(_ name: String, as type: T.Type = T.self) throws -> T {
        guard let index = index(of: name) else {
            throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "no column named \(name)")
        }
        return try value(at: index)
    }

    private func index(of name: String) -> Int? {
        columnNames.firstIndex(of: name)
            ?? columnNames.firstIndex { $0.equalsIgnoringCase(name) }
    }

    static func convert<T: DatabaseValueConvertible>(_ value: DatabaseValue, column: String) throws -> T {
        if let converted = T.fromDatabaseValue(value) { return converted }
        // Name the storage class, never the value: it may be a secret.
        throw DatabaseError(resultCode: .SQLITE_MISMATCH,
                            message: "could not read a \(value.storageClass) value of column \(column) as \(T.self)")
    }
}
