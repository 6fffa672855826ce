import FormBasics
import FormCore
import FoundationEssentials
import FormStoragePostgres

/// Where the command finds its database and its form specs.
struct GlobalOptions: Sendable, Equatable {
    /// `--db`, else `$FORMSTORE_DB`, else `formstore.sqlite` in the working
    /// directory: a SQLite path, or a PostgreSQL URL (`postgres://…`).
    var databasePath: String
    /// `--forms`, else `forms` in the working directory when that folder exists.
    var formsDirectory: String?
    /// How long a command waits for another process's lock before giving up
    /// (exit 75): `$FORMSTORE_BUSY_TIMEOUT_MS`, else 5 seconds.
    var busyTimeout: Duration = GlobalOptions.defaultBusyTimeout
    /// `--trust-schema`, else `$FORMSTORE_TRUST_SCHEMA`: the database's
    /// triggers and views may call functions SQLite does not mark innocuous
    /// (`Configuration.trustsSchema`). Off, a crafted database cannot make a
    /// command run them.
    var trustsSchema = false
    /// How much history each save keeps: `$FORMSTORE_HISTORY_KEEP`, else everything.
    var historyRetention = HistoryRetention.forever
    /// The database was named by `--db` on the command line (`demo` makes it there).
    var databaseGivenAsArgument = false

    static let defaultBusyTimeout = Duration.seconds(5)

    init(databasePath: String, formsDirectory: String?, busyTimeout: Duration = GlobalOptions.defaultBusyTimeout,
         trustsSchema: Bool = false) {
        self.databasePath = databasePath
        self.formsDirectory = formsDirectory
        self.busyTimeout = busyTimeout
        self.trustsSchema = trustsSchema
    }

    /// - throws: a usage error (exit 64) for an environment variable whose
    ///   value means nothing: a typo must not quietly fall back to a default.
    init(_ parsed: ParsedArguments, environment: Environment, workingDirectory: String) throws(CLIError) {
        if let db = parsed.value("db") {
            databasePath = db
            databaseGivenAsArgument = true
        } else if let db = environment["FORMSTORE_DB"], !db.isEmpty {
            databasePath = db
        } else {
            databasePath = GlobalOptions.join(workingDirectory, "formstore.sqlite")
        }
        // SQLite takes both as a database of its own that is gone when the command ends:
        // what a command wrote there would be lost while it said it was saved.
        if databasePath.isEmpty {
            throw CLIError.usage("--db is empty: name a database file")
        }
        if GlobalOptions.isInMemory(databasePath) {
            throw CLIError.usage("--db \(databasePath) is a database in memory, gone when the command ends: name a database file")
        }
        // libpq's `host=… dbname=…` would otherwise be a file path: refused while no such file is
        // there, so `init` makes no file named after it (password and all).
        if PostgresURL.isConnectionString(databasePath), !FileManager.default.fileExists(atPath: databasePath) {
            throw CLIError.usage("--db \(PostgresURL.withoutPassword(databasePath)) is a libpq connection string: "
                                 + "name a PostgreSQL database by its URL (postgresql://USER@HOST:PORT/DBNAME)")
        }
        if let forms = parsed.value("forms") {
            formsDirectory = forms
        } else {
            let candidate = GlobalOptions.join(workingDirectory, "forms")
            var isDirectory = false
            let exists = FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory)
            formsDirectory = exists && isDirectory ? candidate : nil
        }
        if let text = environment["FORMSTORE_BUSY_TIMEOUT_MS"] {
            let trimmed = text.trimmingSpaces()
            if !trimmed.isEmpty, trimmed.allSatisfy(\.isASCII), trimmed.allSatisfy(\.isNumber), Int(trimmed) == nil {
                throw CLIError.usage("FORMSTORE_BUSY_TIMEOUT_MS \(trimmed) is too large: at most \(Int.max) milliseconds")
            }
            guard let milliseconds = Int(trimmed), milliseconds >= 0 else {
                throw CLIError.usage("FORMSTORE_BUSY_TIMEOUT_MS must be a whole number of milliseconds, 0 or more")
            }
            busyTimeout = .milliseconds(milliseconds)
        }
        if let text = environment["FORMSTORE_HISTORY_KEEP"] {
            historyRetention = try Self.retention(text)
        }
        if parsed.flag("trust-schema") {
            trustsSchema = true
        } else if let text = environment["FORMSTORE_TRUST_SCHEMA"] {
            switch text.lowercased() {
            case "1", "true", "yes": trustsSchema = true
            case "", "0", "false", "no": trustsSchema = false
            default: throw CLIError.usage("FORMSTORE_TRUST_SCHEMA must be 1 or 0 (true or false, yes or no)")
            }
        }
    }

    /// `100` (the last 100 saves of each record), `90d` (saves of the last 90
    /// days), or both, `100,90d`.
    static func retention(_ text: String) throws(CLIError) -> HistoryRetention {
        var retention = HistoryRetention.forever
        let refused = CLIError.usage("FORMSTORE_HISTORY_KEEP must be a count of saves per record (100), days (90d), or both (100,90d)")
        // One count and one age at most, and not nothing: `100,100` or `` say no one thing.
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces() }
        guard (1...2).contains(parts.count) else { throw refused }
        for part in parts {
            // 0 keeps each record's latest save (0d: the latest of all), as `HistoryRetention` does;
            // past a million days (2,700 years) a count of seconds would overflow.
            if part.hasSuffix("d"), let days = Int(part.dropLast()), (0...1_000_000).contains(days), retention.maximumAge == nil {
                retention.maximumAge = .seconds(days * 86_400)
            } else if let count = Int(part), count >= 0, retention.maximumCount == nil {
                retention.maximumCount = count
            } else {
                throw refused
            }
        }
        return retention
    }

    /// Whether SQLite opens `path` as a database that is gone when the
    /// command ends: `:memory:`, or a `file:` URI (FormStore opens with
    /// `SQLITE_OPEN_URI`) naming `:memory:`, no file at all (a temporary
    /// database), or `mode=memory` or `vfs=memdb` among its parameters, read as SQLite
    /// reads them: `%HH` decoded, the query ended by a `#`. Read by its
    /// parts: a substring search (`String.contains`) made the runtime scan
    /// every protocol conformance of the binary at each start (issue 14).
    static func isInMemory(_ path: String) -> Bool {
        if path == ":memory:" { return true }
        guard path.hasPrefix("file:") else { return false }
        let uri = path.dropFirst(5).split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let file = String(parts[0]).percentDecoded() ?? String(parts[0])
        if file.isEmpty || file == ":memory:" { return true }
        guard parts.count > 1 else { return false }
        return parts[1].split(separator: "&").contains { parameter in
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decoded = { (text: Substring) in String(text).percentDecoded() ?? String(text) }
            guard pair.count == 2 else { return false }
            let (name, value) = (decoded(pair[0]), decoded(pair[1]))
            // SQLite's `memdb` VFS keeps the whole database in memory too.
            return (name == "mode" && value.hasPrefix("memory")) || (name == "vfs" && value.hasPrefix("memdb"))
        }
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
