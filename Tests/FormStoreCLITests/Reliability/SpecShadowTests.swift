import FormStoreTestSupport
import Foundation
import Testing

/// A spec cannot take over a table name (issue 20, finding 2): one planted in
/// `./forms` or in the database's own `formstore_forms`, named `users` with
/// `"table": "admins"`, must not show or change `admins` as `users`.
@Suite struct SpecShadowTests {
    static let schema = """
        CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE admins (id INTEGER PRIMARY KEY, name TEXT, secret TEXT);
        INSERT INTO users VALUES (1, 'ann');
        INSERT INTO admins VALUES (1, 'root', 'ADMIN-SECRET');

        """
    static let planted = #"{"formstore": 1, "name": "users", "table": "admins", "sections": [{"fields": [{"key": "name"}, {"key": "secret"}]}]}"#

    @Test func aPlantedSpecInTheCurrentFolderIsRefused() throws {
        let db = try DemoDatabase(sql: Self.schema)
        try db.file("work/forms/users.json", Self.planted)
        let dump = try db.dump()
        let work = db.scratch.path + "/work"
        // `./forms` is the default folder: the spec is read, and refused.
        for arguments in [["show", "users", "1"], ["set", "users", "1", "name=x"], ["list", "users"]] {
            let run = try runBinary(["--db", db.path] + arguments, environment: ["XDG_STATE_HOME": db.stateDirectory],
                                    directory: work)
            #expect(run.code == 65, "\(arguments): \(run)")
            #expect(run.errors == "formstore: spec 'users' (\(work)/forms/users.json) edits table 'admins', though 'users' "
                + "is a table of its own; the spec must say \"editsOtherTable\": true if that is meant\n", "\(run)")
            #expect(!run.output.contains("ADMIN-SECRET"))
        }
        #expect(try db.dump() == dump)
    }

    @Test func formsShowsEachFormsTableAndOrigin() throws {
        let db = try DemoDatabase(sql: Self.schema)
        db.formsDirectory = db.scratch.path + "/forms"
        try db.file("forms/users.json", Self.planted)
        try db.file("forms/staff.json", #"{"formstore": 1, "name": "staff", "table": "admins", "editsOtherTable": true, "sections": [{"fields": [{"key": "name"}]}]}"#)
        let run = try db.run(["forms", "--format", "json"])
        #expect(run.code == 0, "\(run)")
        let forms = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]])
        let rows = forms.map { "\($0["source"]!) \($0["name"]!) → \($0["table"]!) (\($0["origin"]!))" }
        let folder = db.formsDirectory
        #expect(rows == [
            "spec staff → admins (\(folder)/staff.json)",
            "spec users → admins (\(folder)/users.json)",
            "table admins → admins (inferred)",
            // The name is the spec's: the table is reached by it only through the spec (said, where it read as reachable).
            "table users → users (inferred, behind the spec of the same name)",
        ])
        let table = try db.run(["forms"])
        #expect(table.output.hasPrefix("name    title   source  fields  table   origin\n"), "\(table.output)")
        // Said so explicitly: the spec is used.
        let staff = try db.run(["show", "staff", "1"])
        #expect(staff.code == 0, "\(staff)")
        // The spec names no key: its table's is shown, as export writes it.
        #expect(staff.output == "id:   1\nname: root\n")
    }

    /// A `formstore_forms` table in a database nobody ran `init` on was put
    /// there by someone else: it is not read. After `init` it is FormStore's.
    @Test func specsKeptInADatabaseAreReadOnlyOnceItWasInitialised() throws {
        let keeper = #"{"formstore": 1, "name": "keeper", "table": "users", "editsOtherTable": true, "sections": [{"fields": [{"key": "name"}]}]}"#
        let rows = """
            INSERT INTO formstore_forms VALUES ('users', '\(Self.planted)', '2024-01-01');
            INSERT INTO formstore_forms VALUES ('keeper', '\(keeper)', '2024-01-01');
            """
        let db = try DemoDatabase(sql: Self.schema
            + "CREATE TABLE formstore_forms (name TEXT PRIMARY KEY, spec TEXT NOT NULL, updated_at TEXT NOT NULL);\n" + rows)
        db.formsDirectory = db.scratch.path
        let dump = try db.dump()
        let show = try db.run(["show", "users", "1"])
        #expect(show.code == 0, "\(show)")
        #expect(show.output == "id:   1\nname: ann\n")
        let kept = try db.run(["show", "keeper", "1"])
        #expect(kept.code == 66, "\(kept)")
        let forms = try db.run(["forms", "--format", "json"])
        #expect(!forms.output.contains("kept in the database"), "\(forms.output)")
        #expect(try db.dump() == dump)

        // A database `init` was run on holds FormStore's own specs.
        let initialised = try DemoDatabase(sql: Self.schema)
        initialised.formsDirectory = initialised.scratch.path
        #expect(try initialised.run(["init"]).code == 0)
        try initialised.query(rows)
        let after = try initialised.run(["show", "keeper", "1"])
        #expect(after.code == 0, "\(after)")
        #expect(after.output == "id:   1\nname: ann\n")
        let planted = try initialised.run(["show", "users", "1"])
        #expect(planted.code == 65, "\(planted)")
        #expect(planted.errors.contains("spec 'users' (kept in the database) edits table 'admins'"), "\(planted)")
    }
}
