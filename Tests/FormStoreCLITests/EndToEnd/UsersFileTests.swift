import FormStoreTestSupport
import Foundation
import Testing
import FormStorage

/// "The file is the user's" (docs/fidelity.md): on a database an application
/// made with a rollback journal, no command changes the journal mode or adds
/// FormStore's tables; a command that fails leaves the file byte-identical;
/// drafts live in the sidecar, and a save deletes its draft in its own transaction.
@Suite struct UsersFileTests {
    /// A small application database, made by the sqlite3 shell as an application would.
    static let schema = """
        CREATE TABLE customers (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            city TEXT,
            credit INTEGER NOT NULL DEFAULT 0 CHECK (credit >= 0)
        );
        CREATE TABLE orders (
            id INTEGER PRIMARY KEY,
            customer INTEGER NOT NULL REFERENCES customers(id),
            total REAL NOT NULL
        );
        INSERT INTO customers VALUES (1, 'Ann', 'Kraków', 10), (2, 'Bo', NULL, 0);
        INSERT INTO orders VALUES (1, 1, 9.5);
        """

    static func application(_ sql: String = schema) throws -> DemoDatabase {
        let demo = try DemoDatabase(sql: sql)
        // No specs: every form is inferred from its table.
        demo.formsDirectory = demo.scratch.path + "/forms"
        try FileManager.default.createDirectory(atPath: demo.formsDirectory, withIntermediateDirectories: true)
        return demo
    }

    /// The file's bytes, and which of its companion files exist.
    static func snapshot(_ demo: DemoDatabase) throws -> (bytes: Data, companions: [String]) {
        let companions = ["-wal", "-shm", "-journal"].filter { FileManager.default.fileExists(atPath: demo.path + $0) }
        return (try Data(contentsOf: URL(fileURLWithPath: demo.path)), companions)
    }

    @Test func failingCommandsLeaveTheFileByteIdentical() throws {
        let demo = try Self.application()
        let before = try Self.snapshot(demo)
        #expect(before.companions.isEmpty)
        let bad = try demo.file("bad.ndjson", "{\"id\": 3, \"name\": \"Cy\", \"credit\": -5}\n")
        let failing: [([String], Int32)] = [
            (["set", "customers", "9", "name=Nobody"], 66),            // missing record
            (["set", "customers", "1", "credit=lots"], 65),            // bad value
            (["set", "customers", "1", "nickname=Annie"], 64),         // unknown field: a usage error
            (["set", "customers", "1", "credit=-1"], 65),              // CHECK constraint
            (["set", "orders", "1", "customer=42"], 65),               // foreign key
            (["new", "customers", "city=Oslo"], 65),                   // NOT NULL left empty
            (["delete", "customers", "1", "--yes"], 65),               // still referred to
            (["delete", "customers", "9", "--yes"], 66),               // missing record
            (["import", "customers", bad], 65),                        // a bad row
            (["draft", "restore", "customers", "1"], 66),              // no draft
        ]
        for (arguments, code) in failing {
            let run = try demo.run(arguments)
            #expect(run.code == code, "\(arguments): \(run)")
            let after = try Self.snapshot(demo)
            #expect(after.bytes == before.bytes, "\(arguments) changed the file")
            #expect(after.companions.isEmpty, "\(arguments) left \(after.companions)")
        }
        #expect(try demo.query("PRAGMA journal_mode") == "delete\n")
        // Nothing was kept for the database either: no sidecar, not even its folder.
        #expect(!FileManager.default.fileExists(atPath: demo.stateDirectory))
    }

    @Test func readCommandsLeaveTheFileByteIdentical() throws {
        let demo = try Self.application()
        let before = try Self.snapshot(demo)
        for arguments in [["forms"], ["form", "customers"], ["list", "customers"], ["show", "customers", "1"],
                          ["export", "orders", "--format", "csv"], ["drafts"]] {
            let run = try demo.run(arguments)
            #expect(run.code == 0, "\(arguments): \(run)")
            let after = try Self.snapshot(demo)
            #expect(after.bytes == before.bytes, "\(arguments) changed the file")
            #expect(after.companions.isEmpty, "\(arguments) left \(after.companions)")
        }
        #expect(!FileManager.default.fileExists(atPath: demo.stateDirectory))
    }

    @Test func anEmptyFileStaysEmpty() throws {
        let demo = try DemoDatabase(sql: "")
        // An application created the file and has not written to it yet.
        #expect(FileManager.default.createFile(atPath: demo.path, contents: Data()))
        #expect(try Data(contentsOf: URL(fileURLWithPath: demo.path)).isEmpty)
        for arguments in [["set", "customers", "1", "name=X"], ["list", "customers"], ["edit", "customers", "1"]] {
            let run = try demo.run(arguments)
            #expect(run.code == 66, "\(arguments): \(run)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: demo.path)).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: demo.path + "-wal"))
    }

    @Test func writesKeepTheJournalModeAndAddNoTables() throws {
        let demo = try Self.application()
        let orders = try demo.file("orders.csv", "id,customer,total\n2,2,3.25\n")
        let commands = [
            ["set", "customers", "2", "city=Oslo"],
            ["new", "customers", "name=Cy"],
            ["import", "orders", orders],
            ["delete", "customers", "3", "--yes"],
        ]
        for arguments in commands {
            let run = try demo.run(arguments)
            #expect(run.code == 0, "\(arguments): \(run)")
            #expect(try demo.query("PRAGMA journal_mode") == "delete\n", "\(arguments)")
            #expect(try demo.formStoreTables() == "\n", "\(arguments)")
        }
        // An edit that saves keeps no draft (one autosaved while typing went to the sidecar, if any).
        let edit = try demo.run(["edit", "customers", "2"], stdin: "\nBergen\n\ny\n")
        #expect(edit.code == 0, "\(edit)")
        #expect(try demo.query("SELECT city FROM customers WHERE id = 2") == "Bergen\n")
        #expect(try demo.query("PRAGMA journal_mode") == "delete\n")
        #expect(try demo.formStoreTables() == "\n")
        if demo.sidecar.exists {
            #expect(try demo.querySidecar("SELECT count(*) FROM formstore_drafts") == "0\n")
        }
    }

    @Test func anInterruptedEditKeepsItsDraftInThePrivateSidecar() throws {
        let demo = try Self.application()
        // Type a new city, then the input ends: the draft is kept.
        let edit = try demo.run(["edit", "customers", "1"], stdin: "\nGdańsk\n")
        #expect(edit.code == 1, "\(edit)")
        #expect(edit.errors.contains("your changes are kept as a draft"))
        #expect(try demo.formStoreTables() == "\n")
        #expect(try demo.query("PRAGMA journal_mode") == "delete\n")
        #expect(try demo.query("SELECT city FROM customers WHERE id = 1") == "Kraków\n")

        let sidecar = demo.sidecar
        #expect(sidecar.path.hasPrefix(demo.stateDirectory + "/formstore/sidecar-"))
        #expect(try demo.querySidecar("SELECT form FROM formstore_drafts") == "customers\n")
        let permissions = { (path: String) in
            try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        }
        #expect(try permissions(sidecar.path) == 0o600)
        #expect(try permissions(demo.stateDirectory + "/formstore") == 0o700)

        let drafts = try demo.run(["drafts", "customers"])
        #expect(drafts.code == 0, "\(drafts)")
        #expect(drafts.output.contains("customers  1    city"))
        let restore = try demo.run(["draft", "restore", "customers", "1"])
        #expect(restore.code == 0, "\(restore)")
        #expect(try demo.query("SELECT city FROM customers WHERE id = 1") == "Gdańsk\n")
        #expect(try demo.querySidecar("SELECT count(*) FROM formstore_drafts") == "0\n")
        #expect(try demo.query("PRAGMA journal_mode") == "delete\n")
        #expect(try demo.formStoreTables() == "\n")
        #expect(try Self.snapshot(demo).companions.isEmpty)
    }

    /// A sidecar that cannot be read (damaged) stops nothing of the user's
    /// database: each command says so in a warning and reads and saves the
    /// records without it, and an edit's draft goes to the fallback file.
    /// It stopped every command, `list` included.
    @Test func aDamagedSidecarStopsNothingOfTheDatabase() throws {
        let demo = try Self.application()
        let edit = try demo.run(["edit", "customers", "1"], stdin: "\nGdańsk\n")
        #expect(edit.code == 1, "\(edit)")
        try Data("not a database at all, but long enough to be read as a header of one\n".utf8)
            .write(to: URL(fileURLWithPath: demo.sidecar.path))
        let warning = "formstore: warning: cannot read \(demo.sidecar.path): the file is not an SQLite database; this command "
            + "keeps no history or drafts there (move it away and a new one is made)\n"
        let list = try demo.run(["list", "customers"])
        #expect(list.code == 0, "\(list)")
        #expect(list.errors == warning)
        let set = try demo.run(["set", "customers", "1", "city=Gdynia"])
        #expect(set.code == 0, "\(set)")
        #expect(set.errors == warning)
        #expect(try demo.query("SELECT city FROM customers WHERE id = 1") == "Gdynia\n")
        let again = try demo.run(["edit", "customers", "1"], stdin: "\nSopot\n")
        #expect(again.code == 1, "\(again)")
        #expect(again.errors.contains("your changes are kept in \(demo.stateDirectory)/formstore/draft-"), "\(again)")
    }

    /// The save and the deletion of the draft are one transaction across the
    /// database and its sidecar: when the commit fails (a deferred foreign key),
    /// neither happens.
    @Test func aSaveAndItsDraftsDeletionCommitTogether() throws {
        let demo = try Self.application("""
            CREATE TABLE teams (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE players (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                team INTEGER REFERENCES teams(id) DEFERRABLE INITIALLY DEFERRED
            );
            INSERT INTO teams VALUES (1, 'Reds');
            INSERT INTO players VALUES (1, 'Ann', 1);
            """)
        let edit = try demo.run(["edit", "players", "1"], stdin: "\n7\n")
        #expect(edit.code == 1, "\(edit)")
        #expect(try demo.querySidecar("SELECT count(*) FROM formstore_drafts") == "1\n")
        let bytes = try Self.snapshot(demo).bytes

        // Team 7 does not exist: the COMMIT fails, and the draft stays with the record unchanged.
        let refused = try demo.run(["draft", "restore", "players", "1"])
        #expect(refused.code == 65, "\(refused)")
        #expect(try Self.snapshot(demo).bytes == bytes)
        #expect(try demo.querySidecar("SELECT count(*) FROM formstore_drafts") == "1\n")

        try demo.query("INSERT INTO teams VALUES (7, 'Blues')")
        let saved = try demo.run(["draft", "restore", "players", "1"])
        #expect(saved.code == 0, "\(saved)")
        #expect(try demo.query("SELECT team FROM players WHERE id = 1") == "7\n")
        #expect(try demo.querySidecar("SELECT count(*) FROM formstore_drafts") == "0\n")
    }

    @Test func initTakesTheDatabaseOverAndBringsItsDraftsAlong() throws {
        let demo = try Self.application()
        #expect(try demo.run(["edit", "customers", "2"], stdin: "\nTromsø\n").code == 1)
        let initialized = try demo.run(["init"])
        #expect(initialized.code == 0, "\(initialized)")
        #expect(try demo.query("PRAGMA journal_mode") == "wal\n")
        #expect(try demo.formStoreTables()
            == "formstore_migrations formstore_settings formstore_drafts formstore_forms formstore_changes formstore_change_fields\n")
        #expect(try demo.query("SELECT form FROM formstore_drafts") == "customers\n")
        #expect(try demo.querySidecar("SELECT count(*) FROM formstore_drafts") == "0\n")
        let restore = try demo.run(["draft", "restore", "customers", "2"])
        #expect(restore.code == 0, "\(restore)")
        #expect(try demo.query("SELECT city FROM customers WHERE id = 2") == "Tromsø\n")
        #expect(try demo.query("SELECT count(*) FROM formstore_drafts") == "0\n")
    }
}
