import FormStoreTestSupport
import Foundation
import Testing
import FormStorage
@testable import FormStoreCLI

/// Files that fail: each gives one line naming the file, the documented exit
/// code, and leaves the database as it was.
@Suite struct StorageFaultTests {
    @Test func aFileThatIsNotADatabaseExits74() throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.path + "/garbage.sqlite"
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        try garbage.write(to: URL(fileURLWithPath: path))
        for command in [["list", "people"], ["init"], ["set", "people", "1", "a=b"], ["forms"]] {
            let run = try runBinary(["--db", path] + command)
            #expect(run.code == 74, "\(command): \(run)")
            #expect(run.errors == "formstore: cannot read \(path): the file is not an SQLite database\n")
            #expect(run.output.isEmpty)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
    }

    /// `init` takes no damaged file over (into WAL, with FormStore's tables):
    /// `PRAGMA quick_check` finds the damage, and the file is left as it was.
    @Test func initRefusesADamagedDatabase() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
            INSERT INTO t SELECT i, printf('%.200c', 'x') FROM n;
            """)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: demo.path))
        try handle.seek(toOffset: 20 * 4096)
        handle.write(Data((0..<(3 * 4096)).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }))
        try handle.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: demo.path))
        let run = try demo.run(["init"])
        #expect(run.code == 74, "\(run)")
        #expect(run.errors == "formstore: cannot read \(demo.path): the database is corrupt\n", "\(run)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: demo.path)) == before)
    }

    @Test func aTruncatedDatabaseExits74() throws {
        let demo = try DemoDatabase()
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: demo.path))
        try handle.truncate(atOffset: 6000)
        try handle.close()
        let run = try demo.run(["list", "signups"])
        #expect(run.code == 74, "\(run)")
        #expect(run.errors.hasPrefix("formstore: cannot read \(demo.path): "))
        #expect(run.errors.split(separator: "\n").count == 1)
    }

    @Test func aDatabaseInAMissingFolderCannotBeCreated() throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.path + "/no/such/folder/x.sqlite"
        let run = try runBinary(["--db", path, "init"])
        #expect(run.code == 74, "\(run)")
        #expect(run.errors == "formstore: cannot open \(path): unable to open the database file\n")
    }

    @Test func aDirectoryIsNoDatabase() throws {
        let scratch = try TemporaryDirectory()
        for command in [["list", "x"], ["init"]] {
            let run = try runBinary(["--db", scratch.path] + command)
            #expect(run.code == 74, "\(command): \(run)")
            #expect(run.errors == "formstore: cannot open \(scratch.path): it is a directory\n")
        }
    }

    /// A FIFO would block the open for ever, a device read as an empty
    /// database (and `init` leave a journal beside /dev/null): neither is opened.
    @Test func aFIFOOrADeviceIsNoDatabase() throws {
        let scratch = try TemporaryDirectory()
        let fifo = scratch.path + "/db.sqlite"
        try #require(mkfifo(fifo, 0o600) == 0)
        for (path, kind) in [(fifo, "a FIFO"), ("/dev/null", "a character device")] {
            for command in [["list", "x"], ["init"]] {
                let run = try runBinary(["--db", path] + command)
                #expect(run.code == 74, "\(command): \(run)")
                #expect(run.errors == "formstore: cannot open \(path): it is not a file but \(kind)\n", "\(run)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-journal"))
        // `demo` looked inside an earlier file at its path first, and a FIFO blocked that for ever.
        let demo = try runBinary(["demo", fifo])
        #expect(demo.code == 74 && demo.errors == "formstore: cannot make the demo at \(fifo): it is not a file but a FIFO\n",
                "\(demo)")
    }

    /// A relative `XDG_STATE_HOME` is passed over, as the XDG base
    /// directories say: sidecars and drafts went to a folder under whatever
    /// folder the command ran in, so a draft kept in one was not offered in another.
    @Test func aRelativeStateHomeIsPassedOver() throws {
        let demo = try DemoDatabase(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t VALUES (1, 'a');")
        let home = demo.scratch.path + "/home"
        let run = try runBinary(["--db", demo.path, "edit", "t", "1", "--plain"], stdin: "b\n",
                                environment: ["XDG_STATE_HOME": "relative/state", "HOME": home], directory: demo.scratch.path)
        #expect(run.errors.contains("End of input: your changes are kept as a draft."), "\(run)")
        #expect(!FileManager.default.fileExists(atPath: demo.scratch.path + "/relative"))
        let sidecars = try FileManager.default.contentsOfDirectory(atPath: home + "/.local/state/formstore")
        #expect(sidecars.contains { $0.hasPrefix("sidecar-") }, "\(sidecars)")
    }

    /// A writer killed mid-transaction leaves a hot journal: a read (which
    /// opens the file read-only) rolls it back first, as any SQLite client's
    /// read does, and shows the data as it was before; every read command
    /// said "the database is read-only" (74) until a write came. Where the
    /// person asked for read-only (`mode=ro`), the message says what is left
    /// to recover, not that the file is read-only.
    @Test func aReadRecoversWhatAnInterruptedWriteLeft() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT);
            WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000)
            INSERT INTO book SELECT x, printf('%.200c', 't') FROM c;
            """)
        let interrupted = """
            import os, sqlite3, sys
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute('PRAGMA cache_size = 2')
            c.execute('BEGIN')
            c.execute("UPDATE book SET title = 'changed'")
            os._exit(0)
            """
        let copy = demo.scratch.path + "/copy.sqlite"
        _ = try runProcess("/usr/bin/python3", ["-c", interrupted, demo.path])
        #expect(FileManager.default.fileExists(atPath: demo.path + "-journal"))
        try FileManager.default.copyItem(atPath: demo.path, toPath: copy)
        try FileManager.default.copyItem(atPath: demo.path + "-journal", toPath: copy + "-journal")
        let shown = try demo.run(["show", "book", "7", "--format", "json"])
        #expect(shown.code == 0 && shown.output.contains(String(repeating: "t", count: 200)), "\(shown)")
        #expect(try demo.query("SELECT count(*) FROM book WHERE title = 'changed'") == "0\n")
        let readOnly = try runBinary(["--db", "file:\(copy)?mode=ro", "list", "book", "--limit", "1"])
        #expect(readOnly.code == 74 && readOnly.output.isEmpty, "\(readOnly)")
        #expect(readOnly.errors == "formstore: cannot read file:\(copy)?mode=ro: an interrupted write left it to be "
            + "recovered (its -journal or -wal file), which needs write access to the file and its folder\n")
    }

    @Test func aSpecThatDoesNotMatchTheDatabaseIsNamed() throws {
        let demo = try DemoDatabase()
        demo.formsDirectory = demo.scratch.path + "/forms"
        try demo.file("forms/ghost.json", #"{"formstore": 1, "name": "ghost", "table": "ghosts", "editsOtherTable": true, "sections": [{"fields": [{"key": "a"}]}]}"#)
        try demo.file("forms/odd.json", #"{"formstore": 1, "name": "odd", "table": "logins", "editsOtherTable": true, "primaryKey": ["id"], "sections": [{"fields": [{"key": "nickname"}]}]}"#)
        let ghost = try demo.run(["list", "ghost"])
        #expect(ghost.code == 66)
        #expect(ghost.errors == "formstore: no table named 'ghosts' in the database\n")
        let odd = try demo.run(["new", "odd", "nickname=x"])
        #expect(odd.code == 65)
        #expect(odd.errors == "formstore: form odd: field 'nickname' is bound to column 'nickname', which table 'logins' lacks\n")
        let duplicate = try demo.file("forms/zz.json", #"{"formstore": 1, "name": "odd", "table": "logins", "editsOtherTable": true, "sections": []}"#)
        // Defined twice: that form fails; other commands warn and go on.
        let message = "\(duplicate): $.name: form 'odd' is already defined by \(demo.formsDirectory)/odd.json"
        let twice = try demo.run(["list", "odd"])
        #expect(twice.code == 65)
        #expect(twice.errors == "formstore: \(message)\n")
        let others = try demo.run(["forms"])
        #expect(others.code == 0)
        // `forms` names each spec that does not fit the database, where it listed them as if they worked.
        let ghostFile = "\(demo.formsDirectory)/ghost.json", oddFile = "\(demo.formsDirectory)/odd.json"
        #expect(others.errors == "formstore: warning: \(message) (the file is skipped)\n"
            + "formstore: warning: \(ghostFile): no table named 'ghosts' in the database (its commands fail)\n"
            + "formstore: warning: \(oddFile): form odd: field 'nickname' is bound to column 'nickname', "
            + "which table 'logins' lacks (its commands fail)\n", "\(others)")
    }

    @Test func aLockHeldPastTheBusyTimeoutExits75() throws {
        let demo = try DemoDatabase()
        let before = try demo.dump()
        let holder = try LockHolder(demo.path)
        let environment = ["FORMSTORE_BUSY_TIMEOUT_MS": "100"]
        let set = try demo.run(["set", "signup", "1", "age=50"], environment: environment)
        let list = try demo.run(["list", "signup"], environment: environment)
        try holder.release()
        #expect(set.code == 75, "\(set)")
        #expect(set.errors == "formstore: \(demo.path): the database is locked by another process (try again)\n")
        #expect(list.code == 75, "\(list)")
        #expect(try demo.dump() == before)
    }

    /// A database that cannot grow (`max_page_count`), as on a full disk. The
    /// limit lasts one connection, so this runs in-process with the real workspace.
    @Test func aFullDatabaseExits74AndKeepsNothing() throws {
        let demo = try DemoDatabase()
        let before = try demo.dump()
        let workspace = StorageWorkspace(
            globals: GlobalOptions(databasePath: demo.path, formsDirectory: DemoDatabase.fixtureForms),
            access: .write,
            prepare: { database in
                try database.writeWithoutTransaction { conn in
                    let pages = try conn.fetchValue(Int.self, "PRAGMA page_count") ?? 1
                    try conn.execute("PRAGMA max_page_count = \(pages)")
                }
            })
        let rows = (1...400).map { "{\"firstName\": \"N\($0)\", \"lastName\": \"L\", \"email\": \"n\($0)@example.com\", \"password\": \"\(String(repeating: "p", count: 200))\"}" }
        let run = runTool(["--db", demo.path, "import", "signup"], stdin: rows.joined(separator: "\n"), workspace: workspace)
        #expect(run.code == .storage, "\(run)")
        #expect(run.errors == "formstore: cannot write \(demo.path): the database or the disk is full\n")
        #expect(try demo.dump() == before)
    }

    @Test func everyFailedCommandLeavesTheDatabaseUnchanged() throws {
        let demo = try DemoDatabase()
        let before = try demo.dump()
        let failing: [([String], String, Int32)] = [
            (["set", "signup", "1", "age=-1"], "", 65),
            (["set", "signup", "1", "nope=1"], "", 64),
            (["set", "signup", "9", "age=1"], "", 66),
            (["set", "signup", "1"], "", 64),
            (["new", "login", "email=a@b.c"], "", 65),
            (["new", "nosuchform", "a=b"], "", 66),
            (["delete", "signup", "7", "--yes"], "", 66),
            (["import", "signup"], "{\"email\": 3}\n", 65),
            (["import", "signup"], "not json\n", 65),
            (["draft", "restore", "no-such-draft"], "", 66),
            (["draft", "discard", "signup", "1"], "", 66),
            (["list", "signup", "--where", "age=x"], "", 65),
            (["show", "signups", "1\\,2"], "", 66),
            (["migrate", demo.scratch.path + "/nothing-here"], "", 66),
            (["lsit"], "", 64),
        ]
        for (arguments, stdin, code) in failing {
            let run = try demo.run(arguments, stdin: stdin)
            #expect(run.code == code, "\(arguments): \(run)")
            #expect(run.output.isEmpty, "\(arguments)")
            #expect(!run.errors.isEmpty, "\(arguments)")
            #expect(try demo.dump() == before, "\(arguments) changed the database")
        }
        #expect(try demo.query("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'formstore%'") == "0\n")
    }

    @Test func aMalformedSpecIsOneLineWithFileAndPath() throws {
        let demo = try DemoDatabase()
        demo.formsDirectory = demo.scratch.path + "/forms"
        let spec = try demo.file("forms/broken.json", """
        {"formstore": 1, "name": "broken", "sections": [{"fields": [{"key": "a", "kind": "colour"}]}]}
        """)
        let run = try demo.run(["list", "broken"])
        #expect(run.code == 65)
        #expect(run.errors.hasPrefix("formstore: \(spec): $.sections[0].fields[0].kind: unknown kind \"colour\"; expected one of text, "))
        #expect(run.errors.split(separator: "\n").count == 1)
        // Another form works, with the broken file as a one-line warning.
        let other = try demo.run(["list", "signups"])
        #expect(other.code == 0)
        #expect(other.errors.hasPrefix("formstore: warning: \(spec): $.sections[0].fields[0].kind: unknown kind"))
        #expect(other.errors.split(separator: "\n").count == 1)
        try demo.file("forms/broken.json", "{\"formstore\": 1,\n")
        let json = try demo.run(["show", "broken", "1"])
        #expect(json.code == 65)
        #expect(json.errors.hasPrefix("formstore: \(spec): $: not a FormStore spec: invalid JSON at line 2"))
        let missing = try runBinary(["--db", demo.path, "--forms", demo.scratch.path + "/elsewhere", "forms"])
        #expect(missing.code == 66)
        #expect(missing.errors == "formstore: no forms folder at \(demo.scratch.path)/elsewhere\n")
    }
}
