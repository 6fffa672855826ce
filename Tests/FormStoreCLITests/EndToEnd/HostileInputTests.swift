import FormStoreTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
import FormStorage
#endif

/// A database, a spec or a file system set up by someone else (issue 20):
/// `formstore`, perhaps run as root, refuses what it must not do, says why in
/// one line, and leaves the database as it was.
@Suite struct HostileInputTests {
    /// A table whose trigger reads a virtual table SQLite does not let an
    /// untrusted schema use, and a view over another; built as an application
    /// (or an attacker) would, with the `sqlite3` shell.
    static let untrustedSchema = """
    CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);
    CREATE TABLE audit (what TEXT);
    CREATE TRIGGER notes_audit AFTER UPDATE ON notes BEGIN
        INSERT INTO audit SELECT name FROM pragma_database_list;
    END;
    CREATE VIEW schema_files AS SELECT name, file FROM pragma_database_list;
    INSERT INTO notes VALUES (1, 'first');

    """

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func aTriggerThatNeedsATrustedSchemaIsRefusedUntilTrusted() throws {
        let db = try DemoDatabase(sql: Self.untrustedSchema)
        let before = try db.dump()
        let bytes = try Self.bytes(db.path)

        let refused = try db.run(["set", "notes", "1", "body=second"])
        #expect(refused.code == 65)
        #expect(refused.errors == "formstore: the database's schema (its triggers, views, CHECKs, generated columns or indexes) "
                + "uses virtual table \"pragma_database_list\", which SQLite runs from a database's schema only if "
                + "it is trusted; nothing was changed (if you trust this database, run again with --trust-schema)\n")
        #expect(refused.output.isEmpty)
        #expect(try db.dump() == before)
        #expect(try Self.bytes(db.path) == bytes)

        let trusted = try db.run(["--trust-schema", "set", "notes", "1", "body=second"])
        #expect(trusted.code == 0, "\(trusted.errors)")
        #expect(try db.query("SELECT body FROM notes; SELECT what FROM audit") == "second\nmain\n")
        let byEnvironment = try db.run(["set", "notes", "1", "body=third"], environment: ["FORMSTORE_TRUST_SCHEMA": "1"])
        #expect(byEnvironment.code == 0, "\(byEnvironment.errors)")
        #expect(try db.query("SELECT count(*) FROM audit") == "2\n")
    }

    @Test func aViewThatNeedsATrustedSchemaIsNotRead() throws {
        let db = try DemoDatabase(sql: Self.untrustedSchema)
        let before = try db.dump()
        let refused = try db.run(["list", "schema_files", "--format", "json"])
        #expect(refused.code == 65)
        #expect(refused.errors.hasPrefix("formstore: the database's schema (its triggers, views, CHECKs, generated columns "
                                         + "or indexes) uses virtual table \"pragma_database_list\""))
        #expect(refused.errors.hasSuffix("run again with --trust-schema)\n"))
        #expect(refused.output.isEmpty)
        let trusted = try db.run(["list", "schema_files", "--format", "json", "--trust-schema"])
        #expect(trusted.code == 0, "\(trusted.errors)")
        #expect(trusted.output.contains("\"main\""))
        #expect(try db.dump() == before)
    }

    @Test func aFunctionSQLiteNeverRunsFromASchemaIsNamed() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);
            CREATE TRIGGER notes_load AFTER UPDATE ON notes BEGIN SELECT load_extension('/tmp/evil'); END;
            INSERT INTO notes VALUES (1, 'first');

            """)
        let before = try db.dump()
        for trust in [[], ["--trust-schema"]] {
            let run = try db.run(trust + ["set", "notes", "1", "body=second"])
            #expect(run.code == 65)
            #expect(run.errors.hasPrefix("formstore: the database's schema (its triggers, views, CHECKs, generated columns "
                                         + "or indexes) uses load_extension(), "))
            #expect(try db.dump() == before)
        }
    }

    /// Trust is given for SQLite's JSON functions by their names only: a
    /// virtual table the schema named `json_x` is no JSON function, and its
    /// trigger reading `pragma_database_list` is still refused.
    @Test func aTableNamedLikeAJSONFunctionGetsNoTrust() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT);
            CREATE VIRTUAL TABLE json_x USING fts5(x);
            CREATE TABLE log (x);
            CREATE TRIGGER tr AFTER UPDATE ON t BEGIN
                INSERT INTO log SELECT count(*) FROM json_x; INSERT INTO log SELECT file FROM pragma_database_list;
            END;
            INSERT INTO t VALUES (1, 'a');

            """)
        let run = try db.run(["set", "t", "1", "name=b"])
        #expect(run.code == 65 && run.errors.contains("uses virtual table \"json_x\""), "\(run)")
        #expect(try db.query("SELECT count(*) FROM log") == "0\n")
    }

    /// A Django `JSONField` (`CHECK (JSON_VALID(...))`), a generated column
    /// and an index reading JSON, and a view over `json_each`: SQLite 3.40
    /// refused its own JSON functions from an untrusted schema and called the
    /// schema malformed ("the database is corrupt", exit 74). Each command
    /// works, untrusted, and a value the schema cannot read as JSON is refused.
    @Test func aSchemaThatCallsSQLitesJSONFunctionsIsReadUntrusted() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE app_item (id INTEGER PRIMARY KEY, data TEXT CHECK (JSON_VALID(data) OR data IS NULL),
                qty INT, name TEXT GENERATED ALWAYS AS (data ->> '$.name'));
            CREATE INDEX app_item_kind ON app_item (json_extract(data, '$.kind'));
            CREATE VIEW app_item_keys AS SELECT id, (SELECT count(*) FROM json_each(data)) AS keys FROM app_item;
            INSERT INTO app_item (id, data, qty) VALUES (1, '{"name":"lamp","kind":"a"}', 1);

            """)
        let before = try db.dump()
        let set = try db.run(["set", "app_item", "1", "qty=2"])
        #expect(set.code == 0, "\(set)")
        #expect(try db.query("SELECT data, qty, name FROM app_item") == "{\"name\":\"lamp\",\"kind\":\"a\"}|2|lamp\n")
        let listed = try db.run(["export", "app_item_keys", "--format", "csv"])
        #expect(listed.code == 0 && listed.output == "id,keys\r\n1,2\r\n", "\(listed)")
        #expect(try db.run(["show", "app_item", "1", "--format", "json"]).output.contains("\"name\": \"lamp\""))

        let changed = try db.dump()
        #expect(changed == before.replacingOccurrences(of: "\"kind\":\"a\"}',1", with: "\"kind\":\"a\"}',2"))
        // The generated column reads the new value as JSON before the CHECK does.
        let refused = try db.run(["set", "app_item", "1", "data=not json"])
        #expect(refused.code == 65)
        #expect(refused.errors == "formstore: the database's schema reads a value as JSON, and it is not JSON "
                + "(SQLite: malformed JSON); nothing was changed\n")
        #expect(try db.dump() == changed)
        // An import names the line.
        let imported = try db.run(["import", "app_item", "--format", "ndjson"],
                                  stdin: #"{"id": 2, "data": "{}", "qty": 1}"# + "\n" + #"{"id": 3, "data": "{bad", "qty": 5}"# + "\n")
        #expect(imported.code == 65 && imported.errors.contains("line 2: the database's schema reads a value as JSON"), "\(imported)")
        #expect(try db.dump() == changed)
    }

    @Test func aSpecFileThatIsNotASpecIsNeverQuoted() throws {
        let db = try DemoDatabase()
        let forms = db.scratch.path + "/forms"
        try db.file("forms/shadow.json", #"{"root": {"kind": "$6$SECRETHASH$abc", "uid": 0}}"#)
        try db.file("forms/passwd.json", "root:$6$SECRETHASH$abc:19000:0:99999:7:::\n")
        let before = try db.dump()
        // Using the broken form is an error; any other command warns (a broken spec breaks only its own form).
        for (command, code) in [(["form", "shadow"], 65), (["form", "passwd"], 65), (["forms"], 0), (["list", "signups"], 0)] {
            let run = try runBinary(["--db", db.path, "--forms", forms] + command)
            #expect(run.code == Int32(code), "\(command): \(run)")
            #expect(run.errors.contains(": $: not a FormStore spec"))
            #expect(!run.errors.contains("SECRETHASH"))
        }
        #expect(try db.dump() == before)
    }

    @Test func aTransformThatWouldEmptyValuesIsRefusedWhenTheSpecLoads() throws {
        let db = try DemoDatabase()
        let forms = db.scratch.path + "/forms"
        try db.file("forms/notes.json", """
            {"formstore": 1, "name": "short", "table": "signups",
             "sections": [{"fields": [{"key": "firstName", "transforms": [{"maxLength": -1}]}]}]}
            """)
        let before = try db.dump()
        let run = try runBinary(["--db", db.path, "--forms", forms, "set", "short", "1", "firstName=Ann"])
        #expect(run.code == 65)
        #expect(run.errors == "formstore: \(forms)/notes.json: $.sections[0].fields[0].transforms[0].maxLength: "
                + "must be at least 1, not -1\n")
        #expect(try db.dump() == before)
    }

    @Test func anInvalidEnvironmentValueIsAUsageError() throws {
        let db = try DemoDatabase()
        let run = try db.run(["list", "signup"], environment: ["FORMSTORE_BUSY_TIMEOUT_MS": "abc"])
        #expect(run.code == 64)
        #expect(run.errors.hasPrefix("Error: FORMSTORE_BUSY_TIMEOUT_MS must be a whole number of milliseconds, 0 or more\n"))
        #expect(run.output.isEmpty)
        // A whole number past what it holds is said so, not "must be a whole number".
        let huge = try db.run(["list", "signup"], environment: ["FORMSTORE_BUSY_TIMEOUT_MS": "99999999999999999999"])
        #expect(huge.code == 64)
        #expect(huge.errors.hasPrefix("Error: FORMSTORE_BUSY_TIMEOUT_MS 99999999999999999999 is too large: "
                                      + "at most 9223372036854775807 milliseconds\n"), "\(huge)")
        // An empty JSON body names no line past the first.
        let empty = try db.run(["new", "signup", "--json"], stdin: "\n\n")
        #expect(empty.code == 65 && empty.errors == "formstore: line 1: expected a JSON object, and the input is empty\n", "\(empty)")
    }

    /// An empty `--db`, or one SQLite reads as a database in memory, is a
    /// usage error: `init` and `migrate` said they applied migrations to a
    /// database gone when the command ended.
    @Test func aDatabaseThatWouldVanishIsRefused() throws {
        let scratch = try TemporaryDirectory()
        // As SQLite reads a URI: `%HH` decoded, the query ended by `#`, and `file:` alone a temporary database.
        for path in ["", ":memory:", "file::memory:?cache=shared", "file:x?mode=memory", "file:x?cache=shared&mode=memory",
                     "file:x?mode=%6demory", "file:x?mo%64e=memory", "file:x?mode=memory#x", "file:", "file:%3Amemory%3A",
                     "file:x?vfs=memdb"] {
            let run = try runBinary(["--db", path, "init"], environment: ["XDG_STATE_HOME": scratch.path])
            #expect(run.code == 64, "\(path): \(run)")
            #expect(run.errors.hasPrefix(path.isEmpty ? "Error: --db is empty: name a database file\n"
                : "Error: --db \(path) is a database in memory, gone when the command ends: name a database file\n"), "\(run)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
        // A file whose name only looks like the parameter is a file.
        let file = scratch.path + "/mode=memory.sqlite"
        let made = try runBinary(["--db", file, "init"], environment: ["XDG_STATE_HOME": scratch.path])
        #expect(made.code == 0, "\(made)")
        #expect(FileManager.default.fileExists(atPath: file))
    }

    @Test func aDanglingSymbolicLinkAtTheDatabasePathIsNotFollowed() throws {
        let scratch = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: scratch.path + "/elsewhere", withIntermediateDirectories: false)
        let victim = scratch.path + "/elsewhere/victim.sqlite"
        let link = scratch.path + "/db.sqlite"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)

        let initialise = try runBinary(["--db", link, "init"])
        #expect(initialise.code == 74)
        #expect(initialise.errors.contains("it is a symbolic link to a file that does not exist (not followed)"))
        let write = try runBinary(["--db", link, "set", "notes", "1", "body=x"])
        #expect(write.code == 66)
        #expect(!FileManager.default.fileExists(atPath: victim))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path + "/elsewhere").isEmpty)
    }

    @Test func aFileURIDoesNotCreateADatabaseOutsideInit() throws {
        let scratch = try TemporaryDirectory()
        let file = scratch.path + "/made.sqlite"
        let uri = "file:\(file)?mode=rwc"
        // The URI's file is looked for as a path's is: not there, it is not found (66), as documented.
        for command in [["list", "notes"], ["set", "notes", "1", "body=x"], ["forms"]] {
            let run = try runBinary(command, environment: ["FORMSTORE_DB": uri])
            #expect(run.code == 66, "\(run)")
            #expect(run.errors == "formstore: no database at \(uri) (create one with 'formstore init')\n")
            #expect(!FileManager.default.fileExists(atPath: file), "\(command)")
        }
        let initialise = try runBinary(["init"], environment: ["FORMSTORE_DB": uri])
        #expect(initialise.code == 0, "\(initialise.errors)")
        #expect(FileManager.default.fileExists(atPath: file))
        // There, mode=rwc is still said to be init's; mode=rw is read by read commands (it was refused
        // "asks to create": SQLite refuses a URI's mode freer than a read-only open's) and written by set.
        let rwc = try runBinary(["list", "formstore_settings"], environment: ["FORMSTORE_DB": uri])
        #expect(rwc.code == 74 && rwc.errors == "formstore: cannot open \(uri): its mode asks to create the database, and only "
                + "'formstore init' creates one (use mode=rw)\n", "\(rwc)")
        let rw = "file:\(file)?mode=rw"
        #expect(try runBinary(["forms"], environment: ["FORMSTORE_DB": rw]).code == 0)
        #expect(try runBinary(["list", "formstore_settings"], environment: ["FORMSTORE_DB": rw]).code != 74)
    }

    @Test func aStateDirectoryOthersCanWriteIsRefused() throws {
        let db = try DemoDatabase()
        // The database's sidecar (its drafts), as an earlier command left it.
        let sidecarFolder = db.sidecar.directory.path
        try FileManager.default.createDirectory(atPath: sidecarFolder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: db.sidecar.path, contents: nil)
        let before = try db.dump()

        // The sidecar is not used (another user could have swapped it); the database is, with a warning.
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: sidecarFolder)
        let open = try db.run(["list", "signup"])
        #expect(open.code == 0, "\(open)")
        #expect(open.errors == "formstore: warning: bad permissions on state directory \(sidecarFolder): mode 777 "
                + "lets others write it (chmod 700 it); this command keeps no history or drafts there\n")
        #expect(!open.output.isEmpty)
        let edit = try db.run(["edit", "signup", "1"], stdin: "Zed\n")
        #expect(edit.code == 1, "\(edit)")
        #expect(edit.errors.contains("no draft could be kept"), "\(edit)")

        // Moved aside and replaced by a link to it: refused as well.
        let real = db.scratch.path + "/real-state"
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: sidecarFolder)
        try FileManager.default.moveItem(atPath: sidecarFolder, toPath: real)
        try FileManager.default.createSymbolicLink(atPath: sidecarFolder, withDestinationPath: real)
        let linked = try db.run(["list", "signup"])
        #expect(linked.code == 0, "\(linked)")
        #expect(linked.errors.contains("warning: bad state directory \(sidecarFolder): it is a symbolic link"))
        #expect(try db.dump() == before)
    }

    @Test func theDemoOverwritesOnlyAFileWhoseSchemaIsTheDemos() throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.path + "/demo.sqlite"
        #expect(try runBinary(["demo", path]).code == 0)
        // The demo's marker row is there, but so is a table the demo never made.
        try sqlite3(path, input: "CREATE TABLE accounts (id INTEGER PRIMARY KEY, owner TEXT); INSERT INTO accounts VALUES (1, 'root');")
        let before = try Self.bytes(path)
        let refused = try runBinary(["demo", path])
        #expect(refused.code == 1)
        #expect(refused.errors == "formstore: \(path) exists and is not a FormStore demo; it is left as it is (give another PATH)\n")
        #expect(try Self.bytes(path) == before)

        // A demo table dropped and remade another way is not the demo either.
        try sqlite3(path, input: "DROP TABLE accounts; DROP TABLE logins; CREATE TABLE logins (secret TEXT);")
        #expect(try runBinary(["demo", path]).code == 1)
        #expect(try sqlite3(path, ["SELECT count(*) FROM sqlite_schema WHERE name = 'logins'"]) == "1\n")
    }

    @Test func aSignalDuringTheEditorEndsItAndRemovesTheDocument() throws {
        let db = try DemoDatabase()
        let before = try db.dump()
        let temporary = db.scratch.path + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        for signal in [SIGTERM, SIGHUP, SIGQUIT] {
            // An editor that saves a change, then waits to be ended.
            guard let run = try db.interruptEditor(["edit", "signup", "1", "--editor"],
                                                   script: #"sed -i 's/^lastName: .*/lastName: Typed Before The Signal/' "$1""#,
                                                   signal: signal, temporary: temporary) else { return }
            #expect(run.code == 1, "\(signal): \(run.errors)")
            #expect(run.errors.contains("Interrupted"), "\(signal): \(run.errors)")
            #expect(!FileManager.default.fileExists(atPath: run.document), "\(signal): the document stayed in TMPDIR")
            #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty)
            #expect(!run.editorLeftRunning, "\(signal): the editor is still running")
            // What the person had saved in the document is kept as a draft, not lost with the file.
            let drafts = try db.run(["drafts", "--format", "json"])
            #expect(drafts.output.contains("lastName"), "\(signal): \(drafts)")
            let shown = try db.run(["draft", "show", "signup", "1"])
            #expect(shown.output.contains("Typed Before The Signal"), "\(signal): \(shown)")
            _ = try db.run(["draft", "discard", "signup", "1"])
        }
        #expect(try db.dump() == before)
        // Offered in the editor and saved as shown, the kept line is saved. Before,
        // it came back as text beside the stored value, and nothing was saved.
        _ = try db.interruptEditor(["edit", "signup", "1", "--editor"],
                                   script: #"sed -i 's/^lastName: .*/lastName: Kept/' "$1""#, signal: SIGTERM, temporary: temporary)
        let saved = try db.run(["edit", "signup", "1", "--editor"], environment: ["EDITOR": "true"])
        #expect(saved.code == 0 && saved.errors.contains("Saved"), "\(saved)")
        #expect(try db.run(["show", "signup", "1", "--format", "json"]).output.contains(#""lastName": "Kept""#))
    }
}
