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

extension DatabaseValue {
    /// Whether SQLite stores this value, bound for a column of `affinity`,
    /// in the form it was bound in: no affinity converts it
    /// (<https://www.sqlite.org/datatype3.html#type_affinity>), and it is no
    /// NaN (bound as NULL). NULL and a BLOB are stored as bound in any
    /// column; another value, in a column whose affinity is not known
    /// (`nil`), answers no.
    func isStoredAsBound(in affinity: ColumnAffinity?) -> Bool {
        switch (self, affinity) {
        case (.real(let number), _) where number.isNaN: return false
        case (.null, _), (.blob, _), (_, .blob?): return true
        case (.text, .text?), (.integer, .integer?), (.integer, .numeric?), (.real, .real?): return true
        default: return false
        }
    }
}
