import FormStorage
import FormStoreTestSupport
import Foundation
import Testing

/// Secure fields in the bytes FormStore writes. Covered elsewhere: drafts in
/// memory (FormCoreTests DraftTests.secureFieldsNeverReachADraft), list and
/// export masking (CommandTests.secureValuesAreShownOnlyWhenAsked), errors
/// (WriteCommandTests.secureValuesNeverAppearInErrors, conflicts in
/// ErrorClassificationTests), SQLite errors (DatabaseErrorTests
/// .boundValuesNeverAppearInTheDescription), files created 0600
/// (ConnectionTests, SchemaCommandTests, DraftTests, SessionFaultTests).
@Suite struct SecretTests {
    static let password = "TopSecret-42"

    /// An edit that ends before saving keeps a draft: in the database, or in
    /// its fallback file when the database is locked. The typed password is in
    /// neither file, nor in the database's WAL, nor in anything printed.
    @Test func aTypedPasswordReachesNoDraftByte() throws {
        let demo = try DemoDatabase()
        let state = demo.scratch.path + "/state"
        // Taken over by `init` (WAL, drafts in the database), so a reader gets past another's lock.
        #expect(try demo.run(["init"]).code == 0)
        // A username, the password twice, then the end of input (the draft is kept).
        let typed = "newname\n\(Self.password)\n\(Self.password)\n"
        let kept = try demo.run(["edit", "registration", "1"], stdin: typed, environment: ["XDG_STATE_HOME": state])
        #expect(kept.code == 1, "\(kept)")
        #expect(kept.errors.contains("Secret fields are never kept in drafts"))
        #expect(try demo.query("SELECT count(*) FROM formstore_drafts WHERE payload LIKE '%newname%'") == "1\n")
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: demo.path + suffix) {
            #expect(!(try Self.holdsPassword(demo.path + suffix)), "\(suffix)")
        }

        let holder = try LockHolder(demo.path)
        let fallen = try demo.run(["edit", "registration", "2"], stdin: typed,
                                  environment: ["XDG_STATE_HOME": state, "FORMSTORE_BUSY_TIMEOUT_MS": "100"])
        try holder.release()
        #expect(fallen.code == 1, "\(fallen)")
        #expect(fallen.errors.contains("your changes are kept in \(state)/formstore/draft-"))
        // The reason is worded like the command's errors, without SQLite's codes.
        #expect(fallen.errors.contains("could not take the draft (\(demo.path): the database is locked by another process (try again))"))
        #expect(!fallen.errors.contains("SQLITE_BUSY"))
        let files = try FileManager.default.contentsOfDirectory(atPath: state + "/formstore")
        #expect(files.count == 1)
        for file in files {
            let path = state + "/formstore/" + file
            #expect(try String(contentsOfFile: path, encoding: .utf8).contains("newname"))
            #expect(!(try Self.holdsPassword(path)))
        }
        for run in [kept, fallen] {
            #expect(!run.errors.contains(Self.password) && !run.output.contains(Self.password))
        }
    }

    /// The same for a database nobody ran `init` on: its draft is in the sidecar.
    @Test func aTypedPasswordReachesNoSidecarByte() throws {
        let demo = try DemoDatabase()
        let typed = "newname\n\(Self.password)\n\(Self.password)\n"
        let kept = try demo.run(["edit", "registration", "1"], stdin: typed)
        #expect(kept.code == 1, "\(kept)")
        #expect(try demo.querySidecar("SELECT count(*) FROM formstore_drafts WHERE payload LIKE '%newname%'") == "1\n")
        for path in [demo.path, demo.sidecar.path] {
            for suffix in ["", "-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
                #expect(!(try Self.holdsPassword(path + suffix)), "\(path + suffix)")
            }
        }
        #expect(!kept.errors.contains(Self.password) && !kept.output.contains(Self.password))
    }

    /// Where nothing can keep a draft (its folder cannot be made, the
    /// database has no tables of FormStore's), the changes are printed to
    /// type again, the password not among them; no resume is offered.
    @Test func changesNothingCouldKeepArePrintedWithoutTheSecret() throws {
        let demo = try DemoDatabase()
        let blocked = try demo.file("state-is-a-file", "")
        let typed = "newname\n\(Self.password)\n\(Self.password)\n"
        let run = try demo.run(["edit", "registration", "1"], stdin: typed, environment: ["XDG_STATE_HOME": blocked + "/x"])
        #expect(run.code == 1, "\(run)")
        #expect(run.errors.contains("End of input: no draft could be kept ("), "\(run)")
        #expect(run.errors.contains("your changes, to type again:\n  "), "\(run)")
        #expect(run.errors.contains(": newname\n"), "\(run)")
        #expect(run.errors.contains("  and the secret fields Password.\n"), "\(run)")
        #expect(run.errors.contains("/formstore/sidecar-"), "the file that failed is named: \(run)")
        #expect(!run.errors.contains("To resume") && !run.errors.contains("(nowhere)"), "\(run)")
        #expect(!run.errors.contains(Self.password) && !run.output.contains(Self.password))
    }

    // MARK: A database and a spec that try to make a secret show (issue 20)

    static let secret = "TOPSECRET-CH"

    /// Fixtures/bad/databases/secret-triggers.sql, and a spec making its `pin` a secure choice.
    /// A trigger refusing a change of another field, on a row that holds a
    /// password, hides its text (it could quote the stored password) but
    /// says it of the row, not of the password nobody touched.
    @Test func aRefusalOfAnotherFieldIsNotSaidOfThePassword() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, password TEXT);
            CREATE TRIGGER no_bad BEFORE UPDATE ON users WHEN NEW.name = 'bad'
                BEGIN SELECT RAISE(ABORT, 'name may not be bad'); END;
            INSERT INTO users VALUES (1, 'ann', 'stored-pw-3');
            """)
        let set = try db.run(["set", "users", "1", "name=bad"])
        #expect(set.code == 65, "\(set)")
        #expect(set.errors == "formstore: Refused by the database (a trigger); SQLite's message is not shown, "
                + "as it could quote a secure value the row holds (password)\n", "\(set)")
        Self.expectNoSecret(set, "stored-pw-3")
        let typed = try db.run(["set", "users", "1", "name=bad", "password=new-pw-4"])
        #expect(typed.errors.hasPrefix("formstore: password: refused by the database (a trigger)"), "\(typed)")
        Self.expectNoSecret(typed, "new-pw-4")
    }

    /// A trigger refusing a delete reads the row's password through `OLD`:
    /// its text is hidden as for a save, in `delete` and the API's DELETE.
    @Test func aRefusedDeleteHidesTheTriggersText() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, password TEXT);
            CREATE TRIGGER keep BEFORE DELETE ON users BEGIN SELECT RAISE(ABORT, 'keep me'); END;
            INSERT INTO users VALUES (1, 'ann', 'stored-pw-3');
            """)
        let run = try db.run(["delete", "users", "1", "--yes"])
        #expect(run.code == 65, "\(run)")
        #expect(run.errors == "formstore: Refused by the database (a trigger); SQLite's message is not shown, "
                + "as it could quote a secure value the row holds (password)\n", "\(run)")
        let server = try ServeRun(db)
        let api = try HTTPClient.request("DELETE", port: server.port, "/api/forms/users/records/1")
        #expect(api.status == 422 && !api.text.contains("keep me"), "\(api)")
        #expect(try db.query("SELECT count(*) FROM users") == "1\n")
    }

    /// A delete that takes child rows holding a password with it, or a save
    /// with `--children` that removes or changes them, hides a refusing
    /// trigger's text: the child row's trigger reads its password through `OLD`.
    @Test func aChildRowsTriggerNeverQuotesItsPassword() throws {
        let db = try DemoDatabase(sql: """
            PRAGMA foreign_keys = ON;
            CREATE TABLE owner (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE login (id INTEGER PRIMARY KEY, owner_id INTEGER REFERENCES owner (id) ON DELETE CASCADE, password TEXT);
            INSERT INTO owner VALUES (1, 'o'); INSERT INTO login VALUES (1, 1, 'child-pw-8');
            CREATE TRIGGER keep BEFORE DELETE ON login BEGIN SELECT RAISE(ABORT, 'login child-pw-8 kept'); END;
            CREATE TRIGGER fix BEFORE UPDATE ON login BEGIN SELECT RAISE(ABORT, 'login child-pw-8 fixed'); END;
            """)
        let before = try db.dump()
        for run in [try db.run(["delete", "owner", "1", "--yes"]),
                    try db.run(["set", "owner", "1", "--children", "--json"], stdin: #"{"login": []}"#),
                    try db.run(["set", "owner", "1", "--children", "--json"], stdin: #"{"login": [{"id": 1, "password": "zz"}]}"#)] {
            #expect(run.code == 65 && run.errors.hasSuffix("as it could quote a secure value the row holds (login.password)\n"),
                    "\(run)")
            Self.expectNoSecret(run, "child-pw-8")
        }
        #expect(try db.dump() == before)
    }

    static func accounts() throws -> DemoDatabase {
        let db = try DemoDatabase(sql: String(contentsOfFile: packageRoot + "/Fixtures/bad/databases/secret-triggers.sql",
                                              encoding: .utf8))
        db.formsDirectory = db.scratch.path + "/forms"
        try db.file("forms/vault.json", """
            {"formstore": 1, "name": "vault", "table": "accounts", "editsOtherTable": true, "sections": [{"fields": [
              {"key": "name", "required": true},
              {"key": "password", "kind": "password"},
              {"key": "pin", "kind": "choice", "secure": true, "choices": ["1111", "2222"]}]}]}
            """)
        return db
    }

    static func expectNoSecret(_ run: BinaryRun, _ secret: String = SecretTests.secret,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!run.output.contains(secret) && !run.errors.contains(secret), "\(run)", sourceLocation: sourceLocation)
    }

    @Test func aSecureChoiceNeverEchoesWhatWasTyped() throws {
        let db = try Self.accounts()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: db.path))
        let set = try db.run(["set", "vault", "1", "pin=\(Self.secret)"])
        #expect(set.code == 65, "\(set)")
        #expect(set.errors.contains("pin is not one of the choices"), "\(set)")
        Self.expectNoSecret(set)
        let new = try db.run(["new", "vault", "name=bo", "pin=\(Self.secret)"])
        #expect(new.code == 65, "\(new)")
        Self.expectNoSecret(new)
        let imported = try db.run(["import", "vault"], stdin: #"{"name": "cy", "pin": "\#(Self.secret)"}"# + "\n")
        #expect(imported.code == 65, "\(imported)")
        #expect(imported.errors.contains("line 1"), "\(imported)")
        Self.expectNoSecret(imported)
        let listed = try db.run(["list", "vault", "--where", "pin=\(Self.secret)"])
        Self.expectNoSecret(listed)
        #expect(try Data(contentsOf: URL(fileURLWithPath: db.path)) == bytes)
    }

    /// A password given as JSON that does not read (a number past what a
    /// number holds, a bare word, a leading zero) is refused without echoing
    /// it: `FIELD:=`, `--json` and import named the number they refused.
    @Test func aSecretThatIsNoJSONIsNotEchoed() throws {
        let db = try Self.accounts()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: db.path))
        for secret in ["12345678901234567890123", "1e999", "hunter2x", "0123456"] {
            let set = try db.run(["set", "vault", "1", "password:=\(secret)"])
            #expect(set.code == 64, "\(set)")
            Self.expectNoSecret(set, secret)
            let json = try db.run(["set", "vault", "1", "--json"], stdin: #"{"password": \#(secret)}"#)
            #expect(json.code != 0, "\(json)")
            Self.expectNoSecret(json, secret)
            let imported = try db.run(["import", "vault"], stdin: #"{"name": "cy", "password": \#(secret)}"# + "\n")
            #expect(imported.code == 65 && imported.errors.contains("line 1"), "\(imported)")
            Self.expectNoSecret(imported, secret)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: db.path)) == bytes)
    }

    /// SQLite's text from a statement that bound a password is replaced by the
    /// constraint's name and the field's label: a trigger building a JSON path
    /// from the new password cannot make the command print it (with
    /// `trusted_schema` off it fails before it runs; either way no text of
    /// SQLite's is shown for such a write).
    @Test func sqliteMessagesFromASecureWriteAreReplaced() throws {
        let db = try Self.accounts()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: db.path))
        let password = "TOPSECRET-PW-9"
        let set = try db.run(["set", "accounts", "1", "password=\(password)"])
        #expect(set.code != 0, "\(set)")
        #expect(set.errors.contains("password: refused by the database"), "\(set)")
        #expect(set.errors.contains("SQLite's message is not shown"), "\(set)")
        Self.expectNoSecret(set, password)
        let new = try db.run(["new", "accounts", "name=bo", "password=\(password)"])
        #expect(new.code != 0, "\(new)")
        Self.expectNoSecret(new, password)
        let imported = try db.run(["import", "accounts"], stdin: #"{"name": "cy", "password": "\#(password)"}"# + "\n")
        #expect(imported.code != 0, "\(imported)")
        #expect(imported.errors.contains("line 1"), "\(imported)")
        Self.expectNoSecret(imported, password)
        // A CHECK's message comes from the schema alone: it names the constraint, not the value.
        let short = try db.run(["set", "logins", "1", "password=short"])
        #expect(short.code == 65, "\(short)")
        #expect(short.errors == "formstore: CHECK constraint failed: strong_password\n", "\(short)")
        Self.expectNoSecret(short, "short")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db.path)) == bytes)
        // A write binding no secret keeps SQLite's own message.
        let plain = try db.run(["set", "accounts", "1", "pin=3333"])
        #expect(plain.code == 65, "\(plain)")
    }

    /// A draft carrying a secure value (planted: FormStore never writes one)
    /// has it dropped with a warning when loaded; `draft show` never prints it
    /// and `draft restore` never saves it.
    @Test func aPlantedSecretInADraftIsDropped() throws {
        let db = try Self.accounts()
        let kept = try db.run(["edit", "accounts", "1"], stdin: "bob\n")
        #expect(kept.code == 1, "\(kept)")
        try db.querySidecar("UPDATE formstore_drafts SET payload = json_set(payload, '$.values.password', "
            + "json_object('text', '\(Self.secret)'), '$.base.password', json_object('text', 'old-password'))")
        let show = try db.run(["draft", "show", "accounts", "1"])
        #expect(show.code == 0, "\(show)")
        #expect(show.errors.contains("Warning: the draft held a value for the secure field(s) password, left out"), "\(show)")
        #expect(show.output.contains("bob"), "\(show)")
        Self.expectNoSecret(show)
        #expect(!show.output.contains("old-password"), "\(show)")
        let restore = try db.run(["draft", "restore", "accounts", "1"])
        #expect(restore.code == 0, "\(restore)")
        Self.expectNoSecret(restore)
        #expect(try db.query("SELECT name, password FROM accounts WHERE id = 1") == "bob|old-password\n")
    }

    /// Arguments are visible in /proc/PID/cmdline: a secret is read from stdin
    /// (`@-`) or a file (`@path`) instead, and the help says why.
    @Test func aSecretCanComeFromStdinOrAFileInsteadOfArgv() throws {
        let db = try Self.accounts()
        let fromStdin = try db.run(["set", "logins", "1", "password=@-"], stdin: "TOPSECRET-STDIN\n")
        #expect(fromStdin.code == 0, "\(fromStdin)")
        Self.expectNoSecret(fromStdin, "TOPSECRET-STDIN")
        #expect(try db.query("SELECT password FROM logins WHERE id = 1") == "TOPSECRET-STDIN\n")
        let file = try db.file("secret.txt", "TOPSECRET-FILE\n")
        let fromFile = try db.run(["new", "logins", "password=@\(file)"])
        #expect(fromFile.code == 0, "\(fromFile)")
        Self.expectNoSecret(fromFile, "TOPSECRET-FILE")
        #expect(try db.query("SELECT password FROM logins WHERE id = 2") == "TOPSECRET-FILE\n")
        // `:=` is taken as it is; a field that is not secure takes `@` as text.
        let literal = try db.run(["set", "logins", "1", "password:=\"@not-a-file\""])
        #expect(literal.code == 0, "\(literal)")
        #expect(try db.query("SELECT password FROM logins WHERE id = 1") == "@not-a-file\n")
        let text = try db.run(["set", "accounts", "1", "name=@ann"])
        #expect(text.code == 0, "\(text)")
        #expect(try db.query("SELECT name FROM accounts WHERE id = 1") == "@ann\n")
        let missing = try db.run(["set", "logins", "1", "password=@\(db.scratch.path)/nope"])
        #expect(missing.code == 66, "\(missing)")
        let twice = try db.run(["new", "vault", "name=x", "password=@-", "pin=@-"], stdin: "a\n")
        #expect(twice.code == 64, "\(twice)")
        for command in ["set", "new"] {
            let help = try runBinary(["help", command])
            #expect(help.output.contains("/proc/PID/cmdline"), "\(command)")
            #expect(help.output.contains("FIELD=@-"), "\(command)")
        }
    }

    @Test func aBlobFieldTakesAFilesBytes() throws {
        let db = try DemoDatabase(sql: "CREATE TABLE files (id INTEGER PRIMARY KEY, data BLOB); INSERT INTO files VALUES (1, NULL);")
        let path = db.scratch.path + "/bytes.bin"
        try Data([0x00, 0xFF, 0x0A, 0x40]).write(to: URL(fileURLWithPath: path))
        let run = try db.run(["set", "files", "1", "data=@\(path)"])
        #expect(run.code == 0, "\(run)")
        #expect(try db.query("SELECT hex(data), typeof(data) FROM files") == "00FF0A40|blob\n")
    }

    static func holdsPassword(_ path: String) throws -> Bool {
        try Data(contentsOf: URL(fileURLWithPath: path)).range(of: Data(password.utf8)) != nil
    }
}
