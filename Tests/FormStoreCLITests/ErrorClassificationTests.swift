import FormCore
import FormStorage
import FormStoragePostgres
import Testing
@testable import FormStoreCLI

/// The one mapping from other modules' errors to messages and exit codes.
@Suite struct ErrorClassificationTests {
    static let path = "./x.sqlite"

    static func classified(_ error: any Error) -> CLIError {
        CLIError.classifying(error, databasePath: path)
    }

    @Test(arguments: [
        (ResultCode.SQLITE_BUSY, 75, "./x.sqlite: the database is locked by another process (try again)"),
        (.SQLITE_LOCKED, 75, "./x.sqlite: the database is locked by another process (try again)"),
        (.SQLITE_READONLY, 74, "cannot write ./x.sqlite: the database is read-only"),
        // What an interrupted write left, which a read-only connection could not recover (FormStorage recovers it where it may write).
        (.SQLITE_READONLY_RECOVERY, 74, "cannot read ./x.sqlite: an interrupted write left it to be recovered (its -journal "
            + "or -wal file), which needs write access to the file and its folder"),
        (.SQLITE_READONLY_ROLLBACK, 74, "cannot read ./x.sqlite: an interrupted write left it to be recovered (its -journal "
            + "or -wal file), which needs write access to the file and its folder"),
        // A database in a folder the user cannot write: a write needs its journal there, and
        // a WAL database even a read (`show` fails, as it does in `sqlite3`).
        (.SQLITE_READONLY_DIRECTORY, 74, "cannot use ./x.sqlite: its folder is not writable, and SQLite must create "
            + "a file beside it (./x.sqlite-journal to write, or ./x.sqlite-shm for a database in WAL mode, "
            + "even to read it)"),
        (.SQLITE_FULL, 74, "cannot write ./x.sqlite: the database or the disk is full"),
        (.SQLITE_IOERR, 74, "cannot read or write ./x.sqlite: disk I/O error"),
        (.SQLITE_CORRUPT, 74, "cannot read ./x.sqlite: the database is corrupt"),
        (.SQLITE_NOTADB, 74, "cannot read ./x.sqlite: the file is not an SQLite database"),
        (.SQLITE_CANTOPEN, 74, "cannot open ./x.sqlite: unable to open the database file"),
        (.SQLITE_CONSTRAINT_UNIQUE, 65, "UNIQUE constraint failed: t.a"),
        (.SQLITE_ERROR, 1, "SQLite error 1: UNIQUE constraint failed: t.a"),
    ])
    func databaseErrorsMapByResultCode(code: ResultCode, exit: Int32, message: String) {
        let error = DatabaseError(resultCode: code, message: "UNIQUE constraint failed: t.a",
                                  sql: "INSERT INTO t(a) VALUES (?)")
        let classified = Self.classified(error)
        #expect(classified.exitCode.rawValue == exit)
        #expect(classified.message == message)
    }

    /// Writes SQLite lets nothing make there: a view without the trigger, a
    /// virtual table's own storage. Refused by the database (65), said plainly.
    @Test(arguments: [
        ("cannot modify names because it is a view", "'names' is a view, and it has no INSTEAD OF trigger for this "
            + "change (INSERT for new records, UPDATE for set, DELETE for delete); nothing was changed"),
        ("table docs_data may not be modified", "'docs_data' is changed only by SQLite or the virtual table it "
            + "stores, never row by row; nothing was changed"),
    ])
    func writesSQLiteLetsNothingMakeAreRefusals(sqlite: String, message: String) {
        let classified = Self.classified(DatabaseError(resultCode: .SQLITE_ERROR, message: sqlite, sql: "UPDATE x SET a = 1"))
        #expect(classified.exitCode.rawValue == 65)
        #expect(classified.message == message)
    }

    @Test func sessionStoreAndSpecErrorsMapByReason() throws {
        let form = peopleForm()
        let backend = MemoryBackend()
        let missing = #expect(throws: SessionError.self) {
            try FormSession.open(form, key: RecordKey("id", 9), backend: backend)
        }
        #expect(missing.map(Self.classified)?.exitCode == .notFound)
        let session = FormSession.new(form, backend: backend)
        let unknown = #expect(throws: SessionError.self) { try session.set("shoe", input: "9") }
        #expect(unknown.map(Self.classified) == .validation("form people has no field 'shoe'"))
        let spec = SpecError(path: "$.name", message: "expected a string, found a number")
        #expect(Self.classified(spec) == .validation("$.name: expected a string, found a number"))
    }

    @Test func conflictsListEachFieldAndMaskSecureValues() {
        let rejected = RecordRejected(form: peopleForm(), key: "1", reason: .conflict([
            FieldConflict(field: "name", base: "Ann", mine: "Anne", theirs: "Annie\nLee"),
            FieldConflict(field: "password", base: "hunter2", mine: "s3cret", theirs: .null),
        ]))
        let classified = Self.classified(rejected)
        #expect(classified.exitCode == .tryAgain)
        #expect(classified.message == "people 1 was changed by someone else since it was read; nothing was saved (try again)")
        #expect(classified.details == [
            #"name: was "Ann", yours "Anne", theirs "Annie\nLee""#,
            "password: was ••••, yours ••••, theirs (empty)",
        ])
    }

    @Test func validationFailuresListEachFieldOnItsOwnLine() {
        let rejected = RecordRejected(form: peopleForm(), key: nil, reason: .invalid([
            FieldError(field: "name", code: "required", message: "Name is required"),
            FieldError(field: nil, code: "custom", message: "Pick one"),
        ]))
        #expect(Self.classified(rejected) == .validation("new people record: validation failed; nothing was saved",
                                                         details: ["name: Name is required", "Pick one"]))
        #expect(Self.classified(RecordRejected(form: peopleForm(), key: "2", reason: .notFound)).exitCode == .notFound)
    }

    @Test func everyCommandDeclaresTheAccessItNeeds() {
        // Writers open the file for writing, only init, migrate create it, readers open it read-only;
        // nil: the command opens no workspace (serve and demo open their own, groups and help none).
        var declared: [String: DatabaseAccess?] = [:]
        func walk(_ command: any ParsableCommand.Type, path: String) {
            let name = path.isEmpty ? command.configuration.name : path + " " + command.configuration.name
            declared[name] = command.configuration.access
            for sub in command.configuration.subcommands { walk(sub, path: name) }
        }
        walk(FormStoreCommand.self, path: "")
        let expected: [String: DatabaseAccess?] = [
            "formstore": nil, "formstore help": nil, "formstore serve": nil, "formstore demo": nil,
            "formstore draft": nil,
            "formstore init": .create, "formstore migrate": .create, "formstore edit": .writeWithDrafts,
            "formstore new": .write, "formstore set": .write, "formstore delete": .write,
            "formstore import": .write, "formstore revert": .write,
            "formstore draft restore": .write, "formstore draft discard": .write,
            "formstore forms": .read, "formstore form": .read, "formstore list": .read, "formstore show": .read,
            "formstore history": .read, "formstore drafts": .read, "formstore draft show": .read,
            "formstore export": .read, "formstore choices": .read,
        ]
        #expect(declared == expected)
    }

    /// A PostgreSQL refusal that names its column is that field's error (the
    /// web API and `--format json` show it beside the field); one that does
    /// not stays the form's.
    @Test func aPostgresRefusalNamingAColumnIsItsFieldsError() {
        let notNull = PostgresError(sqlState: "23502",
                                    message: #"null value in column "qty" of relation "t" violates not-null constraint"#)
        guard case .invalid(let errors)? = SaveOutcome(refusal: notNull) else { Issue.record("not invalid"); return }
        #expect(errors.map(\.field) == ["qty"])
        let check = PostgresError(sqlState: "23514", message: #"new row for relation "t" violates check constraint "t_qty_check""#)
        guard case .invalid(let others)? = SaveOutcome(refusal: check) else { Issue.record("not invalid"); return }
        #expect(others.map(\.field) == [nil])
    }
}
