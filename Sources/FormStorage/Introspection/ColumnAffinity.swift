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
        if type.containsUTF8("INT") {
            self = .integer
        } else if type.containsUTF8("CHAR") || type.containsUTF8("CLOB") || type.containsUTF8("TEXT") {
            self = .text
        } else if type.containsUTF8("BLOB") || type.allSatisfy(\.isWhitespace) {
            self = .blob
        } else if type.containsUTF8("REAL") || type.containsUTF8("FLOA") || type.containsUTF8("DOUB") {
            self = .real
        } else {
            self = .numeric
        }
    }
}
