import FormStoreTestSupport
import Foundation
import FormStorage

/// A scratch folder with a database built by the `sqlite3` shell (a file
/// FormStore has never opened), and the command run against it with the
/// seed specs of Fixtures/forms.
final class DemoDatabase {
    let scratch: TemporaryDirectory
    let path: String
    /// The specs folder `run` passes with `--forms`.
    var formsDirectory: String
    /// `$XDG_STATE_HOME` for every run: where the database's sidecar is kept.
    let stateDirectory: String

    /// Where FormStore keeps its own tables (drafts) for this database, which
    /// nobody ran `init` on: the sidecar under `stateDirectory`.
    var sidecar: Sidecar {
        Sidecar(database: path, directory: URL(fileURLWithPath: stateDirectory + "/formstore"))!
    }

    static var demoSQL: String {
        get throws { try String(contentsOfFile: packageRoot + "/Fixtures/demo.sql", encoding: .utf8) }
    }

    static let fixtureForms = packageRoot + "/Fixtures/forms"

    /// - parameter sql: the schema and rows; Fixtures/demo.sql by default.
    init(sql: String? = nil, formsDirectory: String = DemoDatabase.fixtureForms) throws {
        scratch = try TemporaryDirectory()
        path = scratch.path + "/demo.sqlite"
        stateDirectory = scratch.path + "/state"
        self.formsDirectory = formsDirectory
        try sqlite3(path, input: try sql ?? Self.demoSQL)
    }

    /// The forms folder becomes one in the scratch folder holding only
    /// `specs` (file name → JSON text), in place of the seed specs.
    func useSpecs(_ specs: [String: String]) throws {
        for (name, json) in specs { try file("forms/" + name, json) }
        formsDirectory = scratch.path + "/forms"
    }

    /// `formstore --db PATH --forms DIR arguments...`
    func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) throws -> BinaryRun {
        try runBinary(["--db", path, "--forms", formsDirectory] + arguments, stdin: stdin,
                      environment: ["XDG_STATE_HOME": stateDirectory].merging(environment) { $1 })
    }

    /// One query's rows from the sidecar (drafts), as the shell prints them.
    @discardableResult
    func querySidecar(_ sql: String) throws -> String {
        try sqlite3(sidecar.path, [sql])
    }

    /// The names of FormStore's tables in the database itself (none unless `init` ran).
    func formStoreTables() throws -> String {
        try query("SELECT group_concat(name, ' ') FROM sqlite_schema WHERE type = 'table' AND name LIKE 'formstore%'")
    }

    /// The whole database as SQL text (`.dump`): equal before and after means unchanged.
    func dump() throws -> String {
        try sqlite3(path, [".dump"])
    }

    /// One query's rows, `|`-separated, as the shell prints them.
    @discardableResult
    func query(_ sql: String) throws -> String {
        try sqlite3(path, [sql])
    }

    /// Writes a file into the scratch folder and returns its path.
    @discardableResult
    func file(_ name: String, _ contents: String) throws -> String {
        let file = scratch.path + "/" + name
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try contents.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }
}
