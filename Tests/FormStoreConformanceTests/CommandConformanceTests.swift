import FormStorage
import FormStoragePostgres
import FormStoreTestSupport
import Foundation
import Testing

/// The `formstore` command against both backends (`--db PATH` or `--db
/// postgres://…`), run as a script runs it: the same exit codes, the same
/// answers, and the same fidelity.
@Suite struct CommandConformanceTests {
    @Test(arguments: BackendKind.allCases)
    func exitCodesAreTheSameOnBothBackends(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let db = ["--db", backend.location]
        let cases: [(arguments: [String], code: Int32)] = [
            (["forms"], 0),
            (["list", "people", "--format", "json"], 0),
            (["show", "people", "1"], 0),
            (["show", "people", "99"], 66),
            (["list", "nosuch"], 66),
            (["set", "people", "1", "nosuch=1"], 64),
            (["set", "people", "1", "name="], 65),
            (["new", "people", "name=Bo Park", "email=bo@example.com", "born=2001-02-03", "score=7.25"], 0),
            (["set", "people", "2", "email=bo@example.org", "subscribed=yes"], 0),
            (["list", "people", "--where", "email~example.org", "--format", "csv"], 0),
            (["delete", "people", "2"], 64),
            (["delete", "people", "2", "--yes"], 0),
            (["delete", "people", "2", "--yes"], 66),
        ]
        for (arguments, code) in cases {
            let run = try runBinary(db + arguments)
            #expect(run.code == code, "\(kind) \(arguments): \(run)")
        }
        let listed = try runBinary(db + ["list", "people", "--format", "json"])
        #expect(listed.output.contains("\"Ann Lee\""), "\(listed)")
        #expect(try backend.count("SELECT count(*) FROM people") == 1)
    }

    @Test(arguments: BackendKind.allCases)
    func setWritesTheColumnsOwnTypeAndOnlyWhatChanged(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let run = try runBinary(["--db", backend.location, "set", "people", "1", "born=1999-12-31", "score=3.5"])
        #expect(run.code == 0, "\(run)")
        let row = try #require(try backend.row("SELECT born, score, email, version FROM people WHERE id = 1"))
        #expect(row[0] == "1999-12-31")
        #expect(row[1].flatMap(Double.init) == 3.5)
        #expect(row[2] == "ann@example.com")
        if kind == .postgres {
            // The column's own type, not text that looks like it.
            #expect(try backend.row("SELECT pg_typeof(born)::text, pg_typeof(score)::text FROM people WHERE id = 1")
                    == ["date", "numeric"])
        }
    }

    @Test func aPostgresPasswordIsNeverPrinted() throws {
        let admin = try PostgresCluster.adminURL()
        // Another database on the same server, which does not exist, named with a password.
        let url = admin.replacingOccurrences(of: "formstore@/postgres", with: "formstore:s3cret-pass@/no_such_database")
        #expect(url.contains("s3cret-pass"))
        for arguments in [["forms"], ["list", "people"], ["set", "people", "1", "name=Ann"], ["init"]] {
            let run = try runBinary(["--db", url] + arguments)
            // The server answers that it has no such database: not found, as a missing file is.
            #expect(run.code == 66, "\(arguments): \(run)")
            #expect(run.errors.hasPrefix("formstore: no PostgreSQL database: "), "\(run)")
            #expect(run.errors.split(separator: "\n").count == 1, "\(run)")
            #expect(!run.errors.contains("s3cret") && !run.output.contains("s3cret"))
        }
    }

    @Test(arguments: BackendKind.allCases)
    func childrenOfATableNothingRefersToShowTheRecordAlone(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let run = try runBinary(["--db", backend.location, "show", "people", "1", "--children"])
        #expect(run.code == 0, "\(kind): \(run)")
        #expect(run.output.hasPrefix("id:         1\nname:       Ann Lee\n"), "\(kind): \(run)")
    }

    /// Each file is its own transaction on either database: a failed file is
    /// named, with the files the run applied before it, which stay.
    @Test(arguments: BackendKind.allCases)
    func aFailedMigrationNamesItsFileAndThoseAppliedBeforeIt(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let scratch = try TemporaryDirectory()
        let folder = scratch.path + "/migrations"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "CREATE TABLE mig_a (x INTEGER);".write(toFile: folder + "/0001_a.sql", atomically: true, encoding: .utf8)
        try "CREATE TABLE mig_b (;".write(toFile: folder + "/0002_b.sql", atomically: true, encoding: .utf8)
        try "CREATE TABLE mig_c (x INTEGER);".write(toFile: folder + "/0003_c.sql", atomically: true, encoding: .utf8)
        let run = try runBinary(["--db", backend.location, "migrate", folder])
        #expect(run.code == 65, "\(kind): \(run)")
        #expect(run.errors.hasPrefix("formstore: Migration 0002_b.sql: failed and was rolled back: "), "\(kind): \(run)")
        #expect(run.errors.hasSuffix("\n  applied before it, and kept: 0001_a.sql\n"), "\(kind): \(run)")
        #expect(try backend.count("SELECT count(*) FROM mig_a") == 0)
        #expect(throws: (any Error).self) { try backend.count("SELECT count(*) FROM mig_c") }
    }

    /// `init` on a database whose own table has a name FormStore's tables
    /// need: refused before anything is made (it stopped halfway before,
    /// leaving the database unable to take FormStore's tables).
    @Test(arguments: BackendKind.allCases)
    func initRefusesATakenNameAndChangesNothing(_ kind: BackendKind) throws {
        // Made without FormStore (a `TestBackend` opens a store, which makes its tables).
        let scratch = try TemporaryDirectory()
        let sql = "CREATE TABLE formstore_drafts (id integer PRIMARY KEY, note text); INSERT INTO formstore_drafts VALUES (1, 'mine');"
        let location: String
        let query: (String) throws -> String?
        switch kind {
        case .sqlite:
            location = scratch.path("app.sqlite")
            let database = try Database(path: location)
            try database.write { try $0.executeScript(sql) }
            query = { text in try database.read { try $0.fetchAll(text).first.map { "\($0[0])" } } }
        case .postgres:
            location = try PostgresCluster.freshDatabase()
            let pool = try PostgresPool(url: location)
            try pool.write { try $0.executeScript(sql) }
            query = { text in try pool.read { try $0.execute(text).text(row: 0, column: 0) } }
        }
        let run = try runBinary(["--db", location, "init"])
        #expect(run.code == 65, "\(kind): \(run)")
        #expect(run.errors.contains("already has a table named formstore_drafts, not made by FormStore"), "\(kind): \(run)")
        #expect(run.errors.split(separator: "\n").count == 1, "\(kind): \(run)")
        let tables = kind == .postgres
            ? "SELECT count(*) FROM pg_catalog.pg_tables WHERE tablename LIKE 'formstore%'"
            : "SELECT count(*) FROM sqlite_schema WHERE name LIKE 'formstore%'"
        #expect(try query(tables) == "1", "\(kind)")
        #expect(try query("SELECT count(*) FROM formstore_drafts WHERE note = 'mine'") == "1")
    }

    /// `form --format sql` prints SQLite's own CREATE TABLE; for a PostgreSQL
    /// table it says where that table's own comes from instead of printing
    /// SQLite's DDL, which drops its types and constraints.
    @Test(arguments: BackendKind.allCases)
    func formAsSQLIsTheTablesOwnOrRefused(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let run = try runBinary(["--db", backend.location, "form", "people", "--format", "sql"])
        if kind == .sqlite {
            #expect(run.code == 0 && run.output.hasPrefix("CREATE TABLE"), "\(run)")
        } else {
            #expect(run.code == 64 && run.output.isEmpty, "\(run)")
            #expect(run.errors.contains("people is a PostgreSQL table: --format sql writes SQLite's CREATE TABLE"), "\(run)")
        }
    }

    /// A row another transaction keeps locked is waited for as long as the
    /// busy timeout, then given up (exit 75), as on SQLite: it hung for as
    /// long as the lock was held.
    @Test func aLockHeldPastTheBusyTimeoutIsTryAgainOnPostgres() throws {
        let backend = try TestBackend(.postgres, schema: People.schema)
        let holder = try PostgresConnection(url: backend.location)
        try holder.execute("BEGIN")
        try holder.execute("SELECT * FROM people WHERE id = 1 FOR UPDATE")
        let run = try runBinary(["--db", backend.location, "set", "people", "1", "name=Locked Out"],
                                environment: ["FORMSTORE_BUSY_TIMEOUT_MS": "200"])
        try holder.execute("ROLLBACK")
        #expect(run.code == 75, "\(run)")
        #expect(run.errors.contains("is locked: another transaction held a lock past the busy timeout"), "\(run)")
        #expect(try backend.row("SELECT name FROM people WHERE id = 1") == ["Ann Lee"])
    }

    @Test func initCreatesFormStoresTablesOnPostgresAndEditKeepsDraftsThere() throws {
        let backend = try TestBackend(.postgres, schema: People.schema)
        let none = try runBinary(["--db", backend.location, "drafts"])
        #expect(none.code == 0, "\(none)")
        let first = try runBinary(["--db", backend.location, "init"])
        #expect(first.code == 0, "\(first)")
        #expect(first.errors.hasPrefix("Applied") || first.errors.hasPrefix("Up to date"), "\(first)")
        #expect(try backend.count("SELECT count(*) FROM formstore_migrations") > 0)
        let again = try runBinary(["--db", backend.location, "init"])
        #expect(again.errors.hasPrefix("Up to date"), "\(again)")
        // Prompts, ended before saving: what was typed is kept as a draft in the database.
        let edit = try runBinary(["--db", backend.location, "edit", "people", "1", "--plain"], stdin: "Ann Park\n")
        #expect(edit.code == 1, "\(edit)")
        let drafts = try runBinary(["--db", backend.location, "drafts"])
        #expect(drafts.code == 0, "\(drafts)")
        #expect(drafts.output.contains("people"), "\(drafts)")
        #expect(try backend.row("SELECT name FROM people WHERE id = 1") == ["Ann Lee"])
    }
}

/// What PostgreSQL refuses by a column's type is named by its field in
/// every command, a password written beside it is not blamed, and a key its
/// column's type cannot hold finds no record, as on SQLite.
@Suite struct PostgresRefusalNamingTests {
    @Test func aValueItsTypeRefusesIsNamedByItsField() throws {
        let backend = try TestBackend(.postgres, schema: Schema(sqlite: "", postgres: """
            CREATE TABLE users (id integer PRIMARY KEY, password text, amount money); INSERT INTO users VALUES (1, 'old', 1);
            """))
        let db = ["--db", backend.location]
        let made = try runBinary(db + ["new", "users", "id=2", "amount=abc"])
        #expect(made.code == 65 && made.errors.contains("amount"), "\(made)")
        let set = try runBinary(db + ["set", "users", "1", "password=@-", "amount=abc"], stdin: "new-secret")
        #expect(set.code == 65 && set.errors.contains("amount") && !set.errors.contains("password"), "\(set)")
        #expect(!set.errors.contains("new-secret"))
        let imported = try runBinary(db + ["import", "users"], stdin: #"{"id": 3, "amount": "abc"}"#)
        #expect(imported.code == 65 && imported.errors.contains("line 1: amount:"), "\(imported)")
        let shown = try runBinary(db + ["show", "users", "abc"])
        #expect(shown.code == 66 && shown.errors == "formstore: users: no record with key abc\n", "\(shown)")
        #expect(try backend.row("SELECT password FROM users WHERE id = 1") == ["old"])
    }
}

/// A `numeric` holding more digits than a double: exported as its text,
/// imported into an empty copy as every digit (it was refused there).
@Suite struct PostgresNumericImportTests {
    @Test func aNumericPastADoubleImportsIntoAnEmptyCopy() throws {
        let schema = "CREATE TABLE n (id integer PRIMARY KEY, v numeric);"
        let source = try TestBackend(.postgres, schema: Schema(sqlite: "", postgres: schema
            + " INSERT INTO n VALUES (1, 12345678901234567890.1234567891);"))
        let copy = try TestBackend(.postgres, schema: Schema(sqlite: "", postgres: schema))
        let exported = try runBinary(["--db", source.location, "export", "n"])
        #expect(exported.output.contains("12345678901234567890.1234567891"), "\(exported)")
        let imported = try runBinary(["--db", copy.location, "import", "n"], stdin: exported.output)
        #expect(imported.code == 0, "\(imported)")
        #expect(try copy.row("SELECT v::text FROM n WHERE id = 1") == ["12345678901234567890.1234567891"])
        // On SQLite, whose NUMERIC would round it to a REAL, the same value is still refused.
        let sqlite = try TestBackend(.sqlite, schema: Schema(sqlite: "CREATE TABLE n (id INTEGER PRIMARY KEY, v NUMERIC);", postgres: ""))
        #expect(try runBinary(["--db", sqlite.location, "import", "n"], stdin: exported.output).code == 65)
    }
}

/// `form` lists a PostgreSQL table's CHECK constraints, as it lists SQLite's.
@Suite struct PostgresFormChecksTests {
    @Test func formListsTheTablesChecks() throws {
        let backend = try TestBackend(.postgres, schema: Schema(sqlite: "", postgres: """
            CREATE TABLE dflt (id serial PRIMARY KEY, qty integer NOT NULL DEFAULT 5 CHECK (qty > 0), note text,
                CONSTRAINT two CHECK (qty < 1000 OR note IS NULL));
            """))
        let run = try runBinary(["--db", backend.location, "form", "dflt"])
        #expect(run.code == 0, "\(run)")
        #expect(run.output.contains("\nChecks of table dflt (the database refuses a row breaking one)\n  qty > 0\n"
                                    + "  (qty < 1000) OR (note IS NULL)\n"), "\(run.output)")
    }
}

/// PostgreSQL's refusal of a value its column's type cannot hold names the
/// field, an empty text too (a CSV's `""` for a number), which its message
/// quotes as `""` only.
@Suite struct PostgresValueRefusalTests {
    @Test func emptyTextForANumberNamesItsField() throws {
        let copy = try TestBackend(.postgres, schema: Schema(sqlite: "", postgres: "CREATE TABLE e (id integer PRIMARY KEY, n integer, t text);"))
        let run = try runBinary(["--db", copy.location, "import", "e", "--format", "csv"], stdin: "id,n,t\n2,\"\",x\n")
        #expect(run.code == 65 && run.errors.hasSuffix("line 2: n: invalid input syntax for type integer: \"\"\n"), "\(run)")
    }
}

/// A row referring to one later in the input imports on PostgreSQL too,
/// whose foreign keys are checked per row unless declared DEFERRABLE: it is
/// tried again once the rows after it are in. One referring to no row at all
/// is still refused, and nothing is imported.
@Suite struct PostgresForwardReferenceImportTests {
    /// A row may refer to one later in the input (an export of a tree whose
    /// parent was changed after its child); a reference to a row that is
    /// neither stored nor imported is refused by its line and field, and
    /// nothing is imported.
    @Test(arguments: BackendKind.allCases)
    func aRowReferringToALaterOneImports(_ kind: BackendKind) throws {
        let schema = "CREATE TABLE node (id integer PRIMARY KEY, label text, parent_id integer REFERENCES node(id));"
        let rows = "INSERT INTO node VALUES (20, 'a', NULL), (21, 'b', NULL), (22, 'c', 20); UPDATE node SET parent_id = 21 WHERE id = 20;"
        let source = try TestBackend(kind, schema: Schema(sqlite: schema + rows, postgres: schema + rows))
        let copy = try TestBackend(kind, schema: Schema(sqlite: schema, postgres: schema))
        let exported = try runBinary(["--db", source.location, "export", "node"])
        let imported = try runBinary(["--db", copy.location, "import", "node"], stdin: exported.output)
        #expect(imported.code == 0 && imported.errors.contains("3 new"), "\(kind): \(imported)")
        #expect(try copy.row("SELECT parent_id FROM node WHERE id = 20") == ["21"])
        let dangling = try runBinary(["--db", copy.location, "import", "node"], stdin: [
            #"{"id": 31, "label": "y", "parent_id": 30}"#, #"{"id": 30, "label": "x", "parent_id": 99}"#,
            #"{"id": 32, "label": "z", "parent_id": 20}"#, #"{"id": 33, "label": "w", "parent_id": 98}"#,
        ].joined(separator: "\n"))
        #expect(dangling.code == 65, "\(kind): \(dangling)")
        // Line 1 waited for line 2, which was refused. SQLite writes the rows that wait with its checks
        // left to the commit, so line 1's reference is found and only lines 2 and 4 are refused;
        // PostgreSQL checks a constraint not declared DEFERRABLE per row, so line 1 is refused too.
        let waited = kind == .postgres ? "  line 1: parent_id: no row of 'node' has id = 30\n" : ""
        #expect(dangling.errors == "formstore: \(kind == .postgres ? 3 : 2) row(s) failed validation; nothing was imported\n"
            + waited + """
              line 2: parent_id: no row of 'node' has id = 99
              line 4: parent_id: no row of 'node' has id = 98

            """, "\(kind): \(dangling)")
        #expect(try copy.count("SELECT count(*) FROM node") == 3)
        let dry = try runBinary(["--db", copy.location, "import", "node", "--dry-run"],
                                stdin: #"{"id": 40, "label": "v", "parent_id": 97}"#)
        #expect(dry.code == 65 && dry.errors.contains("line 1: parent_id: no row of 'node' has id = 97"), "\(kind): \(dry)")
    }

    /// A list of `count` keys in no order (`order`, the input's), each
    /// naming the next (`next`, nil for the last): every row but the first
    /// refers to one that may come later.
    static func list(_ count: Int, seed: UInt64) -> (order: [Int], next: [Int: Int?]) {
        var order = Array(1...count)
        var generator = SplitMix(state: seed)
        order.shuffle(using: &generator)
        return (order, Dictionary(uniqueKeysWithValues: zip(order, order.dropFirst().map(Optional.some) + [nil])))
    }

    /// A list whose `next` keys run every which way, 600 rows of it, imports
    /// in one pass on both backends: a row refused for want of a later one is
    /// tried again as soon as that row is written. On PostgreSQL, rounds of
    /// tries took one round a row or two (70 s for these rows), and before
    /// that the savepoints each refusal left open nested the next rows ever
    /// deeper, until the server ran out of lock memory ("out of shared
    /// memory", nothing imported). From CSV too, whose `5` finds the number 5.
    @Test(arguments: BackendKind.allCases)
    func aListReferringEveryWhichWayImportsInOnePass(_ kind: BackendKind) throws {
        let schema = "CREATE TABLE node (id integer PRIMARY KEY, next integer REFERENCES node(id));"
        let (order, next) = Self.list(600, seed: 11)
        let lines = order.map { id in #"{"id": \#(id), "next": \#(next[id]!.map(String.init) ?? "null")}"# }
        let copy = try TestBackend(kind, schema: Schema(sqlite: schema, postgres: schema))
        let imported = try runBinary(["--db", copy.location, "import", "node"], stdin: lines.joined(separator: "\n"))
        #expect(imported.code == 0 && imported.errors == "Imported 600 row(s): 600 new, 0 updated, 0 unchanged.\n",
                "\(kind): \(imported)")
        #expect(try copy.count("SELECT count(*) FROM node WHERE next IS NOT NULL") == 599)
        #expect(try copy.count("SELECT count(*) FROM node a JOIN node b ON b.id = a.next") == 599)
        let csv = try TestBackend(kind, schema: Schema(sqlite: schema, postgres: schema))
        let fromCSV = try runBinary(["--db", csv.location, "import", "node", "--format", "csv"],
                                    stdin: "id,next\n" + order.map { "\($0),\(next[$0]!.map(String.init) ?? "")" }.joined(separator: "\n"))
        #expect(fromCSV.code == 0 && fromCSV.errors.contains("600 new"), "\(kind): \(fromCSV)")
        #expect(try csv.count("SELECT count(*) FROM node WHERE next IS NOT NULL") == 599)
        // A decimal key given as `"5.00"` is found by the `5` that refers to it: matched by value, not by text
        // (on PostgreSQL the rows were left to rounds of tries, 25 s for 400).
        let decimal = "CREATE TABLE dnode (id numeric(10,2) PRIMARY KEY, next numeric(10,2) REFERENCES dnode(id));"
        let decimals = try TestBackend(kind, schema: Schema(sqlite: decimal, postgres: decimal))
        let (small, after) = Self.list(200, seed: 12)
        let decimalLines = small.map { id in #"{"id": "\#(id).00", "next": \#(after[id]!.map(String.init) ?? "null")}"# }
        let wrote = try runBinary(["--db", decimals.location, "import", "dnode"], stdin: decimalLines.joined(separator: "\n"))
        #expect(wrote.code == 0 && wrote.errors.contains("200 new"), "\(kind): \(wrote)")
        #expect(try decimals.count("SELECT count(*) FROM dnode WHERE next IS NOT NULL") == 199)
    }

    /// A foreign key of two columns is checked and waited on as a key of
    /// one is: a list in no order imports in one pass (on PostgreSQL it was
    /// left to rounds of tries: 144 s for 1,000 rows), and a pair referring
    /// to no row is named by its fields and values, where the refusal said
    /// only that some foreign key failed.
    @Test(arguments: BackendKind.allCases)
    func aKeyOfTwoColumnsIsWaitedOnAndNamed(_ kind: BackendKind) throws {
        let schema = "CREATE TABLE pair (a integer, b text, na integer, nb text, PRIMARY KEY (a, b), FOREIGN KEY (na, nb) REFERENCES pair (a, b));"
        let (order, next) = Self.list(300, seed: 13)
        let lines = order.map { id in
            #"{"a": \#(id), "b": "k\#(id)", "na": \#(next[id]!.map(String.init) ?? "null"), "nb": \#(next[id]!.map { "\"k\($0)\"" } ?? "null")}"#
        }
        let copy = try TestBackend(kind, schema: Schema(sqlite: schema, postgres: schema))
        let imported = try runBinary(["--db", copy.location, "import", "pair"], stdin: lines.joined(separator: "\n"))
        #expect(imported.code == 0 && imported.errors.contains("300 new"), "\(kind): \(imported)")
        #expect(try copy.count("SELECT count(*) FROM pair p JOIN pair q ON q.a = p.na AND q.b = p.nb") == 299)
        let dangling = try runBinary(["--db", copy.location, "import", "pair"], stdin: #"{"a": 900, "b": "x", "na": 77, "nb": "zz"}"#)
        #expect(dangling.code == 65 && dangling.errors.hasSuffix("line 1: na, nb: no row of 'pair' has a = 77, b = zz\n"),
                "\(kind): \(dangling)")
    }

    /// A uuid referred to without its hyphens is the row written with them:
    /// the waiting row is let in when it is written (the row it waited for
    /// then looked like another, and a later line's update of it refused it).
    @Test func aUUIDWrittenAnotherWayLetsItsWaitingRowIn() throws {
        let copy = try TestBackend(.postgres, schema: Schema(sqlite: "", postgres:
            "CREATE TABLE u (id uuid PRIMARY KEY, parent uuid REFERENCES u(id), v text);"))
        let run = try runBinary(["--db", copy.location, "import", "u"], stdin: [
            #"{"id": "11111111-1111-1111-1111-111111111111", "parent": "a0eebc999c0b4ef8bb6d6bb9bd380a11", "v": "1"}"#,
            #"{"id": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"}"#,
            #"{"id": "11111111-1111-1111-1111-111111111111", "v": "3"}"#,
        ].joined(separator: "\n"))
        #expect(run.code == 0 && run.errors.contains("2 new, 1 updated"), "\(run)")
        #expect(try copy.row("SELECT v, parent FROM u WHERE id = '11111111-1111-1111-1111-111111111111'")
            == ["3", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"])
    }

    /// Rows referring to one another in a cycle import where the constraint
    /// may wait for the commit (DEFERRABLE, even INITIALLY IMMEDIATE): the
    /// rows still waiting are written once with the checks deferred, as on
    /// SQLite, where rounds of tries refused both. One referring to no row is
    /// still named by its line, and nothing is imported.
    @Test func aCycleImportsWhereTheConstraintMayWait() throws {
        let schema = "CREATE TABLE cyc (id integer PRIMARY KEY, parent integer REFERENCES cyc(id) DEFERRABLE INITIALLY IMMEDIATE);"
        let copy = try TestBackend(.postgres, schema: Schema(sqlite: "", postgres: schema))
        let cycle = #"{"id": 1, "parent": 2}"# + "\n" + #"{"id": 2, "parent": 1}"#
        let dry = try runBinary(["--db", copy.location, "import", "cyc", "--dry-run"], stdin: cycle)
        #expect(dry.code == 0 && dry.errors.contains("2 new"), "\(dry)")
        let imported = try runBinary(["--db", copy.location, "import", "cyc"], stdin: cycle)
        #expect(imported.code == 0 && imported.errors.contains("2 new"), "\(imported)")
        #expect(try copy.count("SELECT count(*) FROM cyc WHERE parent IS NOT NULL") == 2)
        let dangling = try runBinary(["--db", copy.location, "import", "cyc"],
                                     stdin: #"{"id": 3, "parent": 4}"# + "\n" + #"{"id": 4, "parent": 99}"#)
        #expect(dangling.code == 65 && dangling.errors.hasSuffix("line 2: parent: no row of 'cyc' has id = 99\n"), "\(dangling)")
        #expect(try copy.count("SELECT count(*) FROM cyc") == 2)
    }

    /// Rows referring to one another in a cycle under a foreign key that may
    /// not wait for the commit (not DEFERRABLE) cannot be written in any
    /// order: each is refused, and its message says the lines form a cycle,
    /// where it said only that no row has the key the next line gives. A
    /// line waiting on a refused one that is in no cycle is told no more.
    @Test func aCycleThatCannotImportIsNamedAsOne() throws {
        let schema = "CREATE TABLE ring (id integer PRIMARY KEY, next integer REFERENCES ring(id));"
        let copy = try TestBackend(.postgres, schema: Schema(sqlite: "", postgres: schema))
        let run = try runBinary(["--db", copy.location, "import", "ring"], stdin: [
            #"{"id": 1, "next": 2}"#, #"{"id": 2, "next": 3}"#, #"{"id": 3, "next": 1}"#,
            #"{"id": 4, "next": 5}"#, #"{"id": 5, "next": 99}"#,
        ].joined(separator: "\n"))
        let cycle = " (lines 1, 2 and 3 refer to one another in a cycle: such rows import only where the foreign key is DEFERRABLE)"
        #expect(run.code == 65 && run.errors == "formstore: 5 row(s) failed validation; nothing was imported\n"
            + "  line 1: next: no row of 'ring' has id = 2\(cycle)\n"
            + "  line 2: next: no row of 'ring' has id = 3\(cycle)\n"
            + "  line 3: next: no row of 'ring' has id = 1\(cycle)\n"
            + "  line 4: next: no row of 'ring' has id = 5\n"
            + "  line 5: next: no row of 'ring' has id = 99\n", "\(run)")
        #expect(try copy.count("SELECT count(*) FROM ring") == 0)
    }

    /// A `MATCH FULL` key given in part (one column NULL, another not) is
    /// refused naming its columns and why, by `import`, `set` and `new`:
    /// the server's message named only the constraint.
    @Test func aMatchFullKeyGivenInPartIsNamed() throws {
        let copy = try TestBackend(.postgres, schema: Schema(sqlite: "", postgres: """
            CREATE TABLE p2 (a integer, b integer, PRIMARY KEY (a, b)); INSERT INTO p2 VALUES (1, 1);
            CREATE TABLE c2 (id integer PRIMARY KEY, a integer, b integer, FOREIGN KEY (a, b) REFERENCES p2 MATCH FULL);
            INSERT INTO c2 VALUES (1, 1, 1);
            """))
        let why = "a, b: a reference to 'p2' gives all of a, b or none (MATCH FULL); some are empty and some are not\n"
        let imported = try runBinary(["--db", copy.location, "import", "c2"], stdin: #"{"id": 2, "a": 1}"#)
        #expect(imported.code == 65 && imported.errors.hasSuffix("line 1: " + why), "\(imported)")
        let set = try runBinary(["--db", copy.location, "set", "c2", "1", "b:=null"])
        #expect(set.code == 65 && set.errors == "formstore: cannot save c2 1: " + why, "\(set)")
        let new = try runBinary(["--db", copy.location, "new", "c2", "id=3", "a=1"])
        #expect(new.code == 65 && new.errors == "formstore: cannot save c2 (new): " + why, "\(new)")
        // Given whole, a key naming no row is told so, as under MATCH SIMPLE.
        let missing = try runBinary(["--db", copy.location, "new", "c2", "id=3", "a=1", "b=7"])
        #expect(missing.code == 65 && missing.errors == "formstore: a, b: no row of 'p2' has a = 1, b = 7\n", "\(missing)")
        #expect(try copy.row("SELECT count(*), min(b) FROM c2") == ["1", "1"])
    }

    /// A foreign key to a table of another schema, which the search path
    /// does not find by its name alone: a value referring to no row there is
    /// the row's problem, named by line and field (exit 65). The check looked
    /// the table up by its name alone: "relation does not exist", exit 1.
    /// The message names the table by its schema too, and a table of the
    /// same name in the search path is not taken for it: its rows were the
    /// field's choices and labels (`1 (no such target row)`), and its key
    /// the one a line waited for; the picker reads the other schema's table.
    @Test func aReferenceToATableOfAnotherSchemaIsNamed() throws {
        let copy = try TestBackend(.postgres, schema: Schema(sqlite: "", postgres: """
            CREATE SCHEMA other; CREATE TABLE other.target (id integer PRIMARY KEY, name text NOT NULL);
            INSERT INTO other.target VALUES (1, 'elsewhere');
            CREATE TABLE target (id integer PRIMARY KEY, name text NOT NULL); INSERT INTO target VALUES (8, 'here');
            CREATE TABLE source (id integer PRIMARY KEY, t integer REFERENCES other.target(id));
            """))
        let refused = try runBinary(["--db", copy.location, "import", "source"], stdin: #"{"id": 2, "t": 8}"#)
        #expect(refused.code == 65 && refused.errors.hasSuffix("line 1: t: no row of 'other.target' has id = 8\n"), "\(refused)")
        let taken = try runBinary(["--db", copy.location, "import", "source"], stdin: #"{"id": 3, "t": 1}"#)
        #expect(taken.code == 0, "\(taken)")
        let set = try runBinary(["--db", copy.location, "set", "source", "3", "t=9"])
        #expect(set.code == 65 && set.errors == "formstore: t: no row of 'other.target' has id = 9\n", "\(set)")
        let choices = try runBinary(["--db", copy.location, "choices", "source", "t"])
        #expect(choices.code == 0 && choices.output == "value  label\n1      elsewhere\n", "\(choices)")
        let shown = try runBinary(["--db", copy.location, "show", "source", "3"])
        #expect(shown.code == 0 && shown.output.contains("t:  1 (elsewhere)"), "\(shown)")
        // The target in the search path has no group of `source` rows: they refer to the other schema's.
        let parent = try runBinary(["--db", copy.location, "show", "target", "8", "--children"])
        #expect(!parent.output.contains("source"), "\(parent)")
    }

    /// A table of nothing but its numbered key takes new rows: `new` with
    /// nothing given makes the next number, and a key given is the row's.
    /// It was refused as a form whose every field is read-only.
    @Test(arguments: BackendKind.allCases)
    func aTableOfOnlyANumberedKeyTakesNewRows(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: Schema(sqlite: "CREATE TABLE tickets (id INTEGER PRIMARY KEY);",
                                                           postgres: "CREATE TABLE tickets (id serial PRIMARY KEY);"))
        let db = ["--db", backend.location]
        let numbered = try runBinary(db + ["new", "tickets", "--format", "json"])
        #expect(numbered.code == 0, "\(kind): \(numbered)")
        #expect(numbered.output == "{\n  \"id\": 1\n}\n", "\(kind): \(numbered)")
        let given = try runBinary(db + ["new", "tickets", "id=40"])
        #expect(given.code == 0 && given.errors == "Created tickets 40.\n", "\(kind): \(given)")
        #expect(try backend.count("SELECT count(*) FROM tickets WHERE id IN (1, 40)") == 2)
    }

    /// A child table named like a column of its parent (an artist's `album`
    /// column and an `album` table) is a group under another key,
    /// `album_rows`: it was left out of `--children` without a word.
    @Test(arguments: BackendKind.allCases)
    func aChildTableNamedLikeAParentColumnIsAGroupToo(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: Schema(
            sqlite: """
                CREATE TABLE artist (id INTEGER PRIMARY KEY, name TEXT, album TEXT);
                CREATE TABLE album (id INTEGER PRIMARY KEY, title TEXT, artist_id INTEGER REFERENCES artist (id));
                INSERT INTO artist VALUES (1, 'A', 'fav'); INSERT INTO album VALUES (10, 'T', 1);
                """,
            postgres: """
                CREATE TABLE artist (id integer PRIMARY KEY, name text, album text);
                CREATE TABLE album (id integer PRIMARY KEY, title text, artist_id integer REFERENCES artist (id));
                INSERT INTO artist VALUES (1, 'A', 'fav'); INSERT INTO album VALUES (10, 'T', 1);
                """))
        let exported = try runBinary(["--db", backend.location, "export", "artist", "--children"])
        #expect(exported.code == 0 && exported.errors.isEmpty, "\(kind): \(exported)")
        #expect(exported.output == #"{"id": 1, "name": "A", "album": "fav", "album_rows": [{"id": 10, "title": "T"}]}"# + "\n",
                "\(kind): \(exported)")
    }
}
