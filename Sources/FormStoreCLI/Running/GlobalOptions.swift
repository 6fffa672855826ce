import Foundation

/// Where the command finds its database and its form specs.
struct GlobalOptions: Sendable, Equatable {
    /// `--db`, else `$FORMSTORE_DB`, else `formstore.sqlite` in the working directory.
    var databasePath: String
    /// `--forms`, else `forms` in the working directory when that folder exists.
    var formsDirectory: String?
    /// How long a command waits for another process's lock before giving up
    /// (exit 75): `$FORMSTORE_BUSY_TIMEOUT_MS`, else 5 seconds.
    var busyTimeout: Duration = GlobalOptions.defaultBusyTimeout

    static let defaultBusyTimeout = Duration.seconds(5)

    init(databasePath: String, formsDirectory: String?, busyTimeout: Duration = GlobalOptions.defaultBusyTimeout) {
        self.databasePath = databasePath
        self.formsDirectory = formsDirectory
        self.busyTimeout = busyTimeout
    }

    init(_ parsed: ParsedArguments, environment: [String: String], workingDirectory: String) {
        if let db = parsed.value("db") {
            databasePath = db
        } else if let db = environment["FORMSTORE_DB"], !db.isEmpty {
            databasePath = db
        } else {
            databasePath = GlobalOptions.join(workingDirectory, "formstore.sqlite")
        }
        if let forms = parsed.value("forms") {
            formsDirectory = forms
        } else {
            let candidate = GlobalOptions.join(workingDirectory, "forms")
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory)
            formsDirectory = exists && isDirectory.boolValue ? candidate : nil
        }
        if let text = environment["FORMSTORE_BUSY_TIMEOUT_MS"], let milliseconds = Int(text), milliseconds >= 0 {
            busyTimeout = .milliseconds(milliseconds)
        }
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
