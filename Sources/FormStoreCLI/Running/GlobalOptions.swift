import Foundation

/// Where the command finds its database and its form specs.
struct GlobalOptions: Sendable, Equatable {
    /// `--db`, else `$FORMSTORE_DB`, else `formstore.sqlite` in the working directory.
    var databasePath: String
    /// `--forms`, else `forms` in the working directory when that folder exists.
    var formsDirectory: String?

    init(databasePath: String, formsDirectory: String?) {
        self.databasePath = databasePath
        self.formsDirectory = formsDirectory
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
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
