import FormBasics

/// One schema change: the SQL of a file named `NNNN_name.sql`, its number and
/// its SHA-256 checksum.
///
/// ```swift
/// let migration = try Migration(fileName: "0003_tags.sql", sql: "CREATE TABLE tag(name TEXT PRIMARY KEY);")
/// migration.number     // 3
/// ```
public struct Migration: Sendable, Hashable {
    /// The number that orders it (`3` for `0003_tags.sql`).
    public let number: Int
    /// The file name, which is also what the migrations table records as its name.
    public let fileName: String
    /// The SQL, run as a script in one transaction; it must not BEGIN or COMMIT itself.
    public let sql: String
    /// The SHA-256 of the SQL's UTF-8 bytes, in lower-case hex.
    public let checksum: String

    /// - throws: `MigrationError` (`.invalidFileName`) unless the name is `NNNN_name.sql`.
    public init(fileName: String, sql: String) throws {
        guard let number = Self.number(fromFileName: fileName) else {
            throw MigrationError.invalidFileName(fileName)
        }
        self.number = number
        self.fileName = fileName
        self.sql = sql
        self.checksum = SHA256.hexDigest(Array(sql.utf8))
    }

    /// The leading number of `NNNN_name.sql`: digits, `_`, a name, `.sql`.
    private static func number(fromFileName fileName: String) -> Int? {
        guard fileName.hasSuffix(".sql") else { return nil }
        let stem = fileName.dropLast(4)
        let digits = stem.prefix { $0.isASCII && $0.isNumber }
        let rest = stem.dropFirst(digits.count)
        guard !digits.isEmpty, rest.first == "_", rest.count > 1,
              rest.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) else {
            return nil
        }
        return Int(digits)
    }
}
