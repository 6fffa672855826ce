/// Why migrations were refused or failed. Every error names the file concerned.
///
/// ```swift
/// do {
///     try Migrator.formStore.migrate(db)
/// } catch let error as MigrationError where error.kind == .checksumMismatch {
///     print("edited after it was applied: \(error.fileName ?? "")")
/// }
/// ```
public struct MigrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong; compare with the static members.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case invalidFileName, duplicateNumber, gap, checksumMismatch, unknownMigration, failed, unreadable, nameTaken
            case unreadableFile, notText
        }
        private let base: Base

        /// A `.sql` file not named `NNNN_name.sql`.
        public static let invalidFileName = Kind(base: .invalidFileName)
        /// Two files share a number.
        public static let duplicateNumber = Kind(base: .duplicateNumber)
        /// The numbers do not run 1, 2, 3 ... without a hole.
        public static let gap = Kind(base: .gap)
        /// A file was edited after the database applied it.
        public static let checksumMismatch = Kind(base: .checksumMismatch)
        /// The database applied a migration that no file describes (it is newer than this program).
        public static let unknownMigration = Kind(base: .unknownMigration)
        /// The migration's SQL failed; see `underlyingError` (SQLite's). Nothing of it was kept.
        public static let failed = Kind(base: .failed)
        /// The migrations folder could not be read.
        public static let unreadable = Kind(base: .unreadable)
        /// A migration file could not be read (its permissions, an I/O error).
        public static let unreadableFile = Kind(base: .unreadableFile)
        /// A migration file is no UTF-8 text.
        public static let notText = Kind(base: .notText)
        /// A table FormStore's own migrations make is already there, not made by them.
        public static let nameTaken = Kind(base: .nameTaken)

        public var description: String { base.rawValue }
    }

    public let kind: Kind
    /// The migration file concerned (the folder, for `.unreadable`).
    public let fileName: String?
    /// One line for a person.
    public let message: String
    /// The SQLite error of a `.failed` migration.
    public let underlyingError: DatabaseError?
    /// For a `.failed` migration: the files the same run applied before it,
    /// each in its own transaction, which stay applied.
    public let appliedBefore: [String]

    private init(_ kind: Kind, fileName: String?, message: String, underlyingError: DatabaseError? = nil,
                 appliedBefore: [String] = []) {
        self.kind = kind
        self.fileName = fileName
        self.message = message
        self.underlyingError = underlyingError
        self.appliedBefore = appliedBefore
    }

    public var description: String {
        guard let fileName else { return "Migration error: \(message)" }
        return "Migration \(fileName): \(message)"
    }

    static func invalidFileName(_ fileName: String) -> MigrationError {
        MigrationError(.invalidFileName, fileName: fileName, message: "file name must look like 0001_name.sql")
    }

    static func duplicateNumber(_ fileName: String, other: String) -> MigrationError {
        MigrationError(.duplicateNumber, fileName: fileName, message: "has the same number as \(other)")
    }

    static func gap(_ fileName: String, expected: Int) -> MigrationError {
        MigrationError(.gap, fileName: fileName, message: "expected migration number \(expected) here: numbers must run 1, 2, 3 ... without a gap")
    }

    public static func checksumMismatch(_ fileName: String, recorded: String, current: String) -> MigrationError {
        MigrationError(.checksumMismatch, fileName: fileName,
                       message: "was changed after it was applied (SHA-256 \(recorded.prefix(12))… applied, \(current.prefix(12))… now); add a new migration instead of editing it")
    }

    public static func unknownMigration(number: Int, recordedName: String) -> MigrationError {
        MigrationError(.unknownMigration, fileName: recordedName,
                       message: "number \(number) was applied to this database but no such file exists; the database is newer than these migrations")
    }

    static func failed(_ fileName: String, _ error: DatabaseError, appliedBefore: [String]) -> MigrationError {
        MigrationError(.failed, fileName: fileName, message: "failed and was rolled back: \(error)", underlyingError: error,
                       appliedBefore: appliedBefore)
    }

    /// A migration another database's SQL refused (PostgreSQL's): `reason`
    /// says why; `underlyingError` is nil.
    public static func failed(_ fileName: String, reason: String, appliedBefore: [String]) -> MigrationError {
        MigrationError(.failed, fileName: fileName, message: "failed and was rolled back: \(reason)", appliedBefore: appliedBefore)
    }

    static func nameTaken(_ name: String) -> MigrationError {
        MigrationError(.nameTaken, fileName: nil,
                       message: "the database already has a table named \(name), not made by FormStore, which FormStore's "
                           + "own tables need; nothing was changed (rename that table, or keep FormStore's tables in another database)")
    }

    static func unreadableFile(_ path: String, reason: String) -> MigrationError {
        MigrationError(.unreadableFile, fileName: path, message: "cannot be read: \(reason); nothing was applied")
    }

    static func notText(_ path: String) -> MigrationError {
        MigrationError(.notText, fileName: path, message: "is not UTF-8 text; nothing was applied")
    }

    static func unreadable(_ directory: String, reason: String) -> MigrationError {
        MigrationError(.unreadable, fileName: directory, message: "cannot read the migrations folder: \(reason)")
    }
}
