import FormBasics
public import FormCore
public import FoundationEssentials
import Glibc

/// A database of FormStore's own that holds its tables (drafts, kept specs,
/// settings) for a user's database that FormStore did not create and nobody
/// ran `init` on: the user's file keeps its schema and journal mode.
///
/// It lives in `$XDG_STATE_HOME/formstore` (else `~/.local/state/formstore`,
/// the folder the fallback drafts use), named by the SHA-256 of the database's
/// real path, so every process editing that database finds the same sidecar
/// and a moved or copied database starts without drafts. The folder is
/// created 0700 and the file 0600; a folder that is a symbolic link, someone
/// else's or writable by others is refused (`PrivateDirectory`). It keeps SQLite's rollback journal: a
/// transaction that writes both files (a save and the deletion of its draft)
/// then commits atomically through SQLite's super-journal.
///
/// ```swift
/// let sidecar = Sidecar(database: "/srv/app/app.sqlite")
/// print(sidecar?.path ?? "")   // ~/.local/state/formstore/sidecar-3f1c….sqlite
/// ```
public struct Sidecar: Sendable, Hashable {
    /// The schema name it is attached under.
    public static let schemaName = "formstore_sidecar"
    /// The settings key recording which database the sidecar belongs to.
    static let databaseKey = "formstore.sidecar.database"
    /// The settings key `FormStore.initialize()` leaves when it moves the
    /// sidecar's rows into the database: a process that had the sidecar open
    /// goes over to the database's tables (`FormStore.attachSidecar`).
    static let movedKey = "formstore.sidecar.moved"

    /// The real path of the database it belongs to.
    public let databasePath: String
    /// The sidecar's own file.
    public let path: String

    /// The folder sidecars are kept in: `$XDG_STATE_HOME/formstore`, else `~/.local/state/formstore`.
    public static var standardDirectory: URL { FileDraftStore.standard.directory }

    /// The sidecar of the database at `database` (a path or a `file:` URI);
    /// `nil` for an in-memory or temporary database, which has no file to key by.
    public init?(database: String, directory: URL = Sidecar.standardDirectory) {
        self.init(database: database, folder: directory.path)
    }

    /// The sidecar of `database` in the folder at `folder`: a path, put
    /// together as text. Every command's start makes it, and
    /// `appendingPathComponent` and `URL.path` cost more than the rest of
    /// `show` (docs/binary.md).
    init?(database: String, folder: String) {
        guard let real = Self.realDatabasePath(database) else { return nil }
        databasePath = real
        path = (folder.hasSuffix("/") ? folder : folder + "/") + "sidecar-\(SHA256.hexDigest(Array(real.utf8))).sqlite"
    }

    /// The draft scope (`DraftStore.draftScope`) of the database at
    /// `database`: its real path; `nil` for one in memory.
    public static func draftScope(of database: String) -> String? {
        realDatabasePath(database).map { "sqlite:" + $0 }
    }

    /// The real path of the database at `database` (a path or a `file:`
    /// URI), links resolved; `nil` for one in memory or temporary.
    private static func realDatabasePath(_ database: String) -> String? {
        guard let file = Connection.file(behind: database) else { return nil }
        let absolute = file.hasPrefix("/") ? file : FileManager.default.currentDirectoryPath + "/" + file
        return realPath(absolute) ?? absolute
    }

    /// The folder it lives in.
    public var directory: URL { URL(fileURLWithPath: path).deletingLastPathComponent() }

    /// Whether the sidecar was created (by an earlier draft).
    public var exists: Bool { FileManager.default.fileExists(atPath: path) }

    /// Creates the sidecar when missing (folder 0700, file 0600) and brings its
    /// tables up to date, on a connection of its own: migrations must run in
    /// the sidecar, never in the user's database.
    ///
    /// - throws: `DatabaseError`, `MigrationError`, or a file error for the folder.
    func prepare(busyTimeout: Duration) throws {
        try PrivateDirectory.prepare(directory)
        let existed = exists
        do {
            try createTables(busyTimeout: busyTimeout)
        } catch {
            // Made here and not finished (a full disk): no empty sidecar is left for every later open to trip on.
            if !existed {
                unlink(path)
                unlink(path + "-journal")
            }
            throw error
        }
    }

    /// `prepare`'s work, on a connection closed when it returns.
    private func createTables(busyTimeout: Duration) throws {
        var configuration = Configuration()
        configuration.journalMode = .unchanged
        configuration.busyTimeout = busyTimeout
        configuration.maximumReaderCount = 0
        let conn = try Connection(path: path, configuration: configuration)
        try Migrator.formStore.migrate(conn)
        // Which database this is for, so a person looking at the folder can tell.
        guard conn.createdFile else { return }
        try conn.execute("""
            INSERT OR IGNORE INTO formstore_settings (key, value, updated_at) VALUES (?, ?, ?)
            """, [Self.databaseKey, String(decoding: try JSONEncoder().encode(FieldValue.text(databasePath)), as: UTF8.self),
                  ISO8601.dateTime(Date())])
    }

    /// The drafts kept in the sidecar, read from its file alone (read-only):
    /// what a person typed stays within reach when the database it belongs
    /// to cannot be opened (damaged, locked by another process). Empty when
    /// there is no sidecar.
    ///
    /// - throws: `SidecarError` when the sidecar is there but cannot be read.
    public func keptDrafts() throws -> [Draft] {
        guard exists else { return [] }
        do {
            var configuration = Configuration()
            configuration.readOnly = true
            configuration.maximumReaderCount = 0
            let conn = try Connection(path: path, configuration: configuration)
            guard try conn.fetchOne("SELECT 1 FROM sqlite_schema WHERE name = 'formstore_drafts'") != nil else { return [] }
            return try conn.fetchAll("SELECT payload FROM formstore_drafts ORDER BY updated_at DESC").map { row in
                try Draft(encoded: Data(try row.value(at: 0, as: String.self).utf8))
            }
        } catch let error as DatabaseError {
            throw SidecarError(path: path, underlying: error)
        }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// The sidecar could not be made, opened or read: the database it belongs
/// to is fine, this file of FormStore's (drafts and history) is not.
public struct SidecarError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var underlying: DatabaseError

    public var description: String { "\(path): \(underlying)" }
}
