/// The type affinity SQLite gives a column from its declared type.
///
/// ```swift
/// ColumnAffinity(declaredType: "VARCHAR(40)")   // .text
/// ColumnAffinity(declaredType: "BIGINT")        // .integer
/// ColumnAffinity(declaredType: "")              // .blob
/// ```
///
/// See <https://www.sqlite.org/datatype3.html#determination_of_column_affinity>.
public enum ColumnAffinity: String, Sendable, Hashable, CaseIterable {
    case integer = "INTEGER"
    case text = "TEXT"
    case blob = "BLOB"
    case real = "REAL"
    case numeric = "NUMERIC"

    /// Applies SQLite's five rules, in SQLite's order.
    public init(declaredType: String) {
        let type = declaredType.uppercased()
        if type.contains("INT") {
            self = .integer
        } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
            self = .text
        } else if type.contains("BLOB") || type.allSatisfy(\.isWhitespace) {
            self = .blob
        } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
            self = .real
        } else {
            self = .numeric
        }
    }
}
