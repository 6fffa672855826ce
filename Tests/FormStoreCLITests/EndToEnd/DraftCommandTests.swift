import FormStoreTestSupport
import Foundation
import Testing
import FormCore
import FormStorage

/// `drafts` and `draft show|restore|discard` through the built binary, over
/// drafts a library session left, as `edit` would, in the database's sidecar
/// (nobody ran `init` on it).
@Suite struct DraftCommandTests {
    static func signupForm() throws -> Form {
        try FormSpec.decode(Data(contentsOf: URL(fileURLWithPath: DemoDatabase.fixtureForms + "/signup.json")))
    }

    /// The owner `edit` gives its drafts: the login name of the user the tests run as.
    static var loginName: String? {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }

    /// Leaves a draft of signup `id` holding `inputs`, as an interrupted edit
    /// of `owner` (by default the user running the tests) would.
    @discardableResult
    static func leaveDraft(in demo: DemoDatabase, id: Int64?, inputs: [String: String],
                           owner: String? = loginName) throws -> Draft {
        let store = try FormStore(path: demo.path, sidecarDirectory: URL(fileURLWithPath: demo.stateDirectory + "/formstore"))
        let form = try signupForm()
        let policy = DraftAutosaver.Policy(interval: .zero, fallback: nil)
        let session = try id.map { try FormSession.open(form, key: RecordKey("id", .int($0)), backend: store,
                                                        drafts: store, owner: owner, autosave: policy) }
            ?? FormSession.new(form, backend: store, drafts: store, owner: owner, autosave: policy)
        for (field, input) in inputs.sorted(by: { $0.key < $1.key }) { try session.set(field, input: input) }
        session.close()
        return try #require(try store.drafts(form: "signup").first)
    }

    @Test func draftsAreListedAndShownNextToTheStoredValues() throws {
        let demo = try DemoDatabase()
        let none = try demo.run(["drafts"])
        #expect(none.code == 0)
        #expect(none.output == "id  form  key  fields  updated\n")
        let draft = try Self.leaveDraft(in: demo, id: 1, inputs: ["age": "50", "password": "never-kept"])
        let list = try demo.run(["drafts", "signup", "--format", "json"])
        #expect(list.code == 0, "\(list)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]])
        #expect(rows.count == 1)
        #expect(rows.first?["id"] as? String == draft.id)
        #expect(rows.first?["key"] as? String == "1")
        #expect(rows.first?["fields"] as? [String] == ["age"])
        #expect(try demo.run(["drafts", "login"]).output == "id  form  key  fields  updated\n")
        let show = try demo.run(["draft", "show", "signup", "1"])
        #expect(show.code == 0, "\(show)")
        // base: when the draft was made; draft: what was typed; stored: the database now.
        #expect(show.output == "field  base  draft  stored\nage    34    50     34\n")
        #expect(try demo.run(["draft", "show", draft.id]).output == show.output)
        #expect(!show.output.contains("never-kept"))
    }

    /// `draft show` shows each value as its field does: a day as a day
    /// (it printed `1999-12-31 00:00:00`), NULL apart from empty text.
    @Test func aDraftIsShownAsItsFieldsShowValues() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE person (id INTEGER PRIMARY KEY, born DATE, nick TEXT);
            INSERT INTO person VALUES (3, '1999-12-31', NULL);
            """)
        // Interrupted at the second question: the first answer is kept as a draft.
        let edit = try demo.run(["edit", "person", "3", "--plain"], stdin: "2000-01-01\n")
        #expect(edit.errors.contains("kept as a draft"), "\(edit)")
        let show = try demo.run(["draft", "show", "person", "3"])
        #expect(show.output == "field  base        draft       stored\nborn   1999-12-31  2000-01-01  1999-12-31\n", "\(show)")
    }

    @Test func anotherUsersDraftIsNeitherListedNorRestored() throws {
        let demo = try DemoDatabase()
        try Self.leaveDraft(in: demo, id: 1, inputs: ["age": "50"], owner: "someone-else")
        #expect(try demo.run(["drafts"]).output == "id  form  key  fields  updated\n")
        let restore = try demo.run(["draft", "restore", "signup", "1"])
        #expect(restore.code == 66)
        #expect(restore.errors == "formstore: no draft of signup 1\n")
        #expect(try demo.query("SELECT age FROM signups WHERE id = 1") == "34\n")
    }

    @Test func restoreSavesTheDraftAndDeletesIt() throws {
        let demo = try DemoDatabase()
        try Self.leaveDraft(in: demo, id: 2, inputs: ["age": "28", "lastName": "Kimura"])
        let run = try demo.run(["draft", "restore", "signup", "2"])
        #expect(run.code == 0, "\(run)")
        #expect(run.errors == "Restored and saved 2.\n")
        #expect(try demo.query("SELECT lastName, age FROM signups WHERE id = 2") == "Kimura|28\n")
        #expect(try demo.querySidecar("SELECT count(*) FROM formstore_drafts") == "0\n")
        let again = try demo.run(["draft", "restore", "signup", "2"])
        #expect(again.code == 66)
        #expect(again.errors == "formstore: no draft of signup 2\n")
    }

    @Test func aDraftOfANewRecordIsRestoredAsANewRecord() throws {
        let demo = try DemoDatabase()
        let draft = try Self.leaveDraft(in: demo, id: nil, inputs: [
            "firstName": "Cy", "lastName": "Park", "email": "cy@example.com", "age": "41",
        ])
        // The password is secure, so never in a draft: the restore cannot pass validation.
        let invalid = try demo.run(["draft", "restore", draft.id])
        #expect(invalid.code == 65)
        #expect(invalid.errors == "formstore: new signup record: validation failed; nothing was saved\n  password: Password is required\n")
        #expect(try demo.querySidecar("SELECT count(*) FROM formstore_drafts") == "1\n")
        #expect(try demo.query("SELECT count(*) FROM signups") == "2\n")
    }

    @Test func aRecordChangedSinceTheDraftIsAConflictUntilASideIsChosen() throws {
        let demo = try DemoDatabase()
        try Self.leaveDraft(in: demo, id: 1, inputs: ["age": "50", "lastName": "Smythe"])
        try demo.query("UPDATE signups SET age = 40 WHERE id = 1")
        let show = try demo.run(["draft", "show", "signup", "1"])
        #expect(show.output == "field     base  draft   stored\nage       34    50      40\nlastName  Lee   Smythe  Lee\n")
        let before = try demo.dump()
        let run = try demo.run(["draft", "restore", "signup", "1"])
        #expect(run.code == 75)
        #expect(run.errors == """
        formstore: signup 1 was changed by someone else since it was read; nothing was saved (try again)
          age: was "34", yours "50", theirs "40"
          keep one side with --keep mine|theirs, or per field --keep-field FIELD=mine|theirs

        """)
        #expect(try demo.dump() == before)
        #expect(try demo.run(["draft", "restore", "signup", "1", "--keep-field", "email=mine"]).code == 64)
        #expect(try demo.run(["draft", "restore", "signup", "1", "--keep", "both"]).code == 64)

        // Theirs: the stored age stays, the draft's other field is saved, the draft is gone.
        let theirs = try demo.run(["draft", "restore", "signup", "1", "--keep", "theirs"])
        #expect(theirs.code == 0, "\(theirs)")
        #expect(try demo.query("SELECT lastName, age FROM signups WHERE id = 1") == "Smythe|40\n")
        #expect(try demo.querySidecar("SELECT count(*) FROM formstore_drafts") == "0\n")
    }

    @Test func keepMineSavesTheDraftsValueAndAFieldChoiceWinsOverIt() throws {
        let demo = try DemoDatabase()
        try Self.leaveDraft(in: demo, id: 1, inputs: ["age": "50", "lastName": "Smythe"])
        try demo.query("UPDATE signups SET age = 40, lastName = 'Smithers' WHERE id = 1")
        let run = try demo.run(["draft", "restore", "signup", "1", "--keep", "mine", "--keep-field", "lastName=theirs"])
        #expect(run.code == 0, "\(run)")
        #expect(run.errors == "Restored and saved 1.\n")
        #expect(try demo.query("SELECT lastName, age FROM signups WHERE id = 1") == "Smithers|50\n")
        #expect(try demo.querySidecar("SELECT count(*) FROM formstore_drafts") == "0\n")
    }

    @Test func discardDeletesOneDraft() throws {
        let demo = try DemoDatabase()
        let draft = try Self.leaveDraft(in: demo, id: 1, inputs: ["age": "50"])
        let run = try demo.run(["draft", "discard", draft.id])
        #expect(run.code == 0, "\(run)")
        #expect(run.errors == "Draft discarded.\n")
        #expect(try demo.query("SELECT age FROM signups WHERE id = 1") == "34\n")
        let again = try demo.run(["draft", "discard", draft.id])
        #expect(again.code == 66)
        #expect(again.errors == "formstore: no draft with id '\(draft.id)'\n")
    }

    /// A draft the database could not take (locked, read-only) is kept in a
    /// file of the state folder, stamped with its database: `drafts`, `draft
    /// show`, `restore` and `discard` find it there, and another database
    /// with the same table and key is neither offered nor shown it. Before,
    /// the commands did not see such drafts, and `edit` on any database
    /// offered it and, on Enter, saved it there.
    @Test func aDraftKeptInAFileBelongsToItsDatabase() throws {
        let demo = try DemoDatabase()
        let other = demo.scratch.path + "/other.sqlite"
        try sqlite3(other, input: try DemoDatabase.demoSQL)
        func run(_ database: String, _ arguments: [String], stdin: String = "") throws -> BinaryRun {
            try runBinary(["--db", database, "--forms", demo.formsDirectory] + arguments, stdin: stdin,
                          environment: ["XDG_STATE_HOME": demo.stateDirectory])
        }
        var draft = Draft(id: "fallen-1", form: "signup", recordKey: RecordKey("id", 1), formVersion: 1,
                          base: ["age": 34], baseVersion: nil, values: ["age": 50], inputs: [:], owner: Self.loginName)
        draft.database = Sidecar.draftScope(of: demo.path)
        let files = FileDraftStore(directory: URL(fileURLWithPath: demo.stateDirectory + "/formstore"))
        try files.writeDraft(draft)

        #expect(try run(demo.path, ["drafts"]).output.contains("fallen-1"))
        #expect(try run(other, ["drafts"]).output.contains("fallen-1") == false)
        #expect(try run(other, ["draft", "show", "signup", "1"]).code == 66)
        let offered = try run(other, ["edit", "signup", "1", "--plain"], stdin: "\n\n\n\n\n\n\n\n")
        #expect(!offered.errors.contains("draft") && !offered.output.contains("draft"), "\(offered)")
        #expect(try sqlite3(other, ["SELECT age FROM signups WHERE id = 1"]) == "34\n")

        let shown = try run(demo.path, ["draft", "show", "signup", "1"])
        #expect(shown.code == 0 && shown.output.contains("50"), "\(shown)")
        let restored = try run(demo.path, ["draft", "restore", "fallen-1"])
        #expect(restored.code == 0, "\(restored)")
        #expect(try demo.query("SELECT age FROM signups WHERE id = 1") == "50\n")
        #expect(try files.draft(id: "fallen-1") == nil)

        try files.writeDraft(draft)
        #expect(try run(demo.path, ["draft", "discard", "fallen-1"]).code == 0)
        #expect(try files.draft(id: "fallen-1") == nil)
    }

    /// A draft kept twice under one id, in the sidecar and newer in the
    /// fallback files (an autosave went there while the database was locked),
    /// is one draft: listed once, shown, offered and restored as its newest
    /// copy, and both copies go with the restore. `draft restore ID` saved the
    /// older copy and deleted the newer: what was typed last was lost.
    @Test func aDraftKeptTwiceIsItsNewestCopy() throws {
        let demo = try DemoDatabase()
        let older = try Self.leaveDraft(in: demo, id: 1, inputs: ["age": "50"])
        var newer = older
        newer.values["age"] = 51
        newer.values["email"] = "ann@example.org"
        newer.updatedAt = older.updatedAt.addingTimeInterval(5)
        let files = FileDraftStore(directory: URL(fileURLWithPath: demo.stateDirectory + "/formstore"))
        try files.writeDraft(newer)

        let listed = try demo.run(["drafts", "--format", "json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
        #expect(rows.count == 1 && rows.first?["fields"] as? [String] == ["age", "email"], "\(listed)")
        let byID = try demo.run(["draft", "show", older.id])
        #expect(byID.output == (try demo.run(["draft", "show", "signup", "1"])).output)
        #expect(byID.output.contains("51") && byID.output.contains("ann@example.org"), "\(byID)")
        // `edit` offers it once: no "older draft too" of itself.
        let offered = try demo.run(["edit", "signup", "1", "--plain"], stdin: "d\n")
        #expect(offered.errors.contains("There is an unsaved draft of this record"), "\(offered)")
        #expect(!offered.errors.contains("older draft"), "\(offered)")
        let restored = try demo.run(["draft", "restore", older.id])
        #expect(restored.code == 0, "\(restored)")
        #expect(try demo.query("SELECT age, email FROM signups WHERE id = 1") == "51|ann@example.org\n")
        #expect(try demo.run(["drafts"]).output == "id  form  key  fields  updated\n")
        #expect(try files.draft(id: older.id) == nil)
    }

    /// A database that cannot be read (damaged here) leaves its drafts
    /// within reach: `drafts` lists them from the sidecar and the fallback
    /// files, saying so on stderr, and `draft show ID` shows what was typed,
    /// the stored side "(cannot read)". Both failed through the database,
    /// when what was typed is what a person needs most.
    @Test func draftsOfADamagedDatabaseAreStillListedAndShown() throws {
        let demo = try DemoDatabase()
        let draft = try Self.leaveDraft(in: demo, id: 1, inputs: ["age": "50"])
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: demo.path))
        try handle.write(contentsOf: Data("Not a database!\0".utf8))
        try handle.close()
        let listed = try demo.run(["drafts"])
        #expect(listed.code == 0 && listed.output.contains(draft.id), "\(listed)")
        #expect(listed.errors.hasPrefix("formstore: warning: cannot read \(demo.path): the file is not an SQLite database; "
                                        + "its drafts are read from "), "\(listed)")
        let shown = try demo.run(["draft", "show", draft.id])
        #expect(shown.code == 0 && shown.output == "field  base  draft  stored\nage    34    50     (cannot read)\n", "\(shown)")
        #expect(!shown.errors.contains("deleted"), "\(shown)")
        // Restoring needs the database: refused as it is, the draft kept.
        #expect(try demo.run(["draft", "restore", draft.id]).code == 74)
        #expect(try demo.run(["drafts"]).output.contains(draft.id))
    }

    /// A sidecar that is no database is named as such, in a warning: the
    /// database it belongs to is fine (the message named the database), and
    /// its drafts kept elsewhere are listed.
    @Test func aDamagedSidecarIsNamedNotTheDatabase() throws {
        let demo = try DemoDatabase()
        _ = try Self.leaveDraft(in: demo, id: 1, inputs: ["age": "50"])
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: demo.sidecar.path))
        let run = try demo.run(["drafts"])
        #expect(run.code == 0, "\(run)")
        #expect(run.errors == "formstore: warning: cannot read \(demo.sidecar.path): the file is not an SQLite database; "
                + "this command keeps no history or drafts there (move it away and a new one is made)\n", "\(run)")
    }

    /// `drafts NAME` of a name that is no form is not found (66), not an empty list.
    @Test func draftsOfAFormThatIsNoneIsNotFound() throws {
        let demo = try DemoDatabase()
        let run = try demo.run(["drafts", "nosuch"])
        #expect(run.code == 66, "\(run)")
        #expect(run.errors.hasPrefix("formstore: no form or table named 'nosuch'"), "\(run)")
        #expect(try demo.run(["drafts", "signup"]).code == 0)
    }
}
