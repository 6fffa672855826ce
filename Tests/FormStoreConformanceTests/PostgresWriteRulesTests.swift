import FormCore
import FormStoragePostgres
import FormStoreTestSupport
import Foundation
import Testing

/// What a PostgreSQL table does to a write besides storing it: a `BEFORE`
/// trigger that sets a column, row-level security that lets a role read a
/// row it may not change, a `numeric` with more digits than a double.
@Suite struct PostgresWriteRulesTests {
    /// A trigger's value is the trigger's, not the column's rounding: `new`
    /// was refused ("version: 0 would be stored as 1"), and so was any `set`.
    /// A jsonb document typed in another spelling of what the row holds (its
    /// spacing, its keys' order) is no change: nothing is written, so the
    /// row's triggers do not fire and `set` says "No changes."; it was
    /// written, and reported as a change from a document to the same one.
    /// A UNIQUE refusal names the field its one written column is, as SQLite's
    /// `UNIQUE constraint failed: customer.name` does, through `set`, `new`
    /// and `import` (by line); the detail line quoting the value stays out.
    @Test func aUniqueRefusalNamesItsField() throws {
        let backend = try TestBackend(.postgres, schema: Schema(sqlite: "", postgres: """
            CREATE TABLE customer (id integer PRIMARY KEY, name text UNIQUE, note text);
            INSERT INTO customer VALUES (1, 'a', ''), (2, 'b', '');
            """))
        let message = #"name: duplicate key value violates unique constraint "customer_name_key""#
        let set = try runBinary(["--db", backend.location, "set", "customer", "2", "name=a"])
        #expect(set.code == 65 && set.errors == "formstore: \(message)\n", "\(set)")
        let new = try runBinary(["--db", backend.location, "new", "customer", "id=3", "name=b"])
        #expect(new.code == 65 && new.errors == "formstore: \(message)\n", "\(new)")
        let imported = try runBinary(["--db", backend.location, "import", "customer"],
                                     stdin: #"{"id": 4, "name": "a"}"# + "\n" + #"{"id": 5, "name": "z"}"# + "\n")
        #expect(imported.code == 65 && imported.errors.contains("line 1: \(message)"), "\(imported)")
        #expect(try backend.count("SELECT count(*) FROM customer") == 2)
    }

    @Test func aJsonbDocumentRespeltIsNoChange() throws {
        let url = try PostgresCluster.freshDatabase()
        try PostgresCluster.psql(url, """
            CREATE TABLE doc (id integer PRIMARY KEY, body jsonb, note text, writes integer NOT NULL DEFAULT 0);
            CREATE FUNCTION count_writes() RETURNS trigger LANGUAGE plpgsql AS
                $$ BEGIN NEW.writes := OLD.writes + 1; RETURN NEW; END $$;
            CREATE TRIGGER counted BEFORE UPDATE ON doc FOR EACH ROW EXECUTE FUNCTION count_writes();
            INSERT INTO doc (id, body) VALUES (1, '{"a": 1, "b": [1, 2]}');
            """)
        let db = ["--db", url]
        let same = try runBinary(db + ["set", "doc", "1", #"body={"b":[1,2],"a":1}"#])
        #expect(same.code == 0 && same.output.isEmpty && same.errors == "No changes.\n", "\(same)")
        let changed = try runBinary(db + ["set", "doc", "1", #"body={"a":2,"b":[1,2]}"#, "note=x"])
        #expect(changed.code == 0 && changed.output.contains("body") && changed.output.contains("note"), "\(changed)")
        // Respelt beside a real change: only the change is written.
        let beside = try runBinary(db + ["set", "doc", "1", #"body={ "b" : [1,2], "a" : 2 }"#, "note=y"])
        #expect(beside.code == 0 && !beside.output.contains("body") && beside.output.contains("note"), "\(beside)")
        let row = try runBinary(["--db", url, "show", "doc", "1", "--format", "json"])
        #expect(row.output.contains(#""writes": 2"#), "\(row)")
    }

    /// A write through a view whose INSTEAD OF trigger stores something else
    /// than it was given (`upper(name)`) reports what was stored, read again,
    /// as `show` then prints it: it reported the value as typed, which
    /// RETURNING gives back from the trigger's NEW.
    @Test func aViewsInsteadOfTriggerReportsWhatItStored() throws {
        let url = try PostgresCluster.freshDatabase()
        try PostgresCluster.psql(url, """
            CREATE TABLE base (id integer PRIMARY KEY, name text);
            INSERT INTO base VALUES (1, 'ann');
            CREATE VIEW shouting AS SELECT id, name FROM base;
            CREATE FUNCTION shout() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
                IF TG_OP = 'INSERT' THEN INSERT INTO base VALUES (NEW.id, upper(NEW.name));
                ELSE UPDATE base SET name = upper(NEW.name) WHERE id = OLD.id; END IF;
                RETURN NEW; END $$;
            CREATE TRIGGER shout INSTEAD OF INSERT OR UPDATE ON shouting FOR EACH ROW EXECUTE FUNCTION shout();
            """)
        let scratch = try TemporaryDirectory()
        try #"{"formstore": 1, "name": "shouting", "table": "shouting", "primaryKey": ["id"], "sections": [{"fields": [{"key": "id", "kind": "integer"}, {"key": "name"}]}]}"#
            .write(toFile: scratch.path("shouting.json"), atomically: true, encoding: .utf8)
        let db = ["--db", url, "--forms", scratch.path]
        let set = try runBinary(db + ["set", "shouting", "1", "name=bob"])
        #expect(set.code == 0 && set.output == "field  old  new\nname   ann  BOB\n", "\(set)")
        let new = try runBinary(db + ["new", "shouting", "id=2", "name=cy", "--format", "json"])
        #expect(new.code == 0 && new.output.contains(#""name": "CY""#), "\(new)")
        #expect(try runBinary(db + ["show", "shouting", "1"]).output == "id:   1\nname: BOB\n")
    }

    /// A key a table and a table inheriting from it both hold names two
    /// rows: `show` and `set` say so, as on SQLite, where it read as no
    /// record; a key only one of them holds is found and written.
    @Test func aKeyHeldInATableAndItsHeirIsNamedAsTwoRows() throws {
        let url = try PostgresCluster.freshDatabase()
        try PostgresCluster.psql(url, """
            CREATE TABLE cities (id integer PRIMARY KEY, name text);
            CREATE TABLE capitals (state text) INHERITS (cities);
            INSERT INTO cities VALUES (1, 'Springfield');
            INSERT INTO capitals VALUES (1, 'Sacramento', 'CA'), (2, 'Albany', 'NY');
            """)
        let db = ["--db", url]
        for command in [["show", "cities", "1"], ["set", "cities", "1", "name=x"]] {
            let run = try runBinary(db + command)
            #expect(run.code == 65 && run.errors == "formstore: the key names more than one row of 'cities': "
                + "they cannot be told apart by it\n", "\(command): \(run)")
        }
        #expect(try runBinary(db + ["set", "cities", "2", "name=Albany NY"]).code == 0)
        let capitals = try runBinary(db + ["list", "capitals", "--sort", "id", "--format", "csv"])
        #expect(capitals.output.replacingOccurrences(of: "\r\n", with: "\n") == "id,name,state\n1,Sacramento,CA\n2,Albany NY,NY\n",
                "\(capitals)")
        #expect(try runBinary(db + ["show", "cities", "1", "--format", "json"]).code == 65)
    }

    /// A role that may use FormStore's tables and the user's but not CREATE
    /// in the schema runs `serve` and `edit`: their store opened FormStore's
    /// migrations with `CREATE TABLE IF NOT EXISTS`, which needs CREATE even
    /// when the table is there, and `serve` exited. Other writers' commits to
    /// a table it may not give FormStore's notify trigger go unheard, said by
    /// `unwatchedTables`, and nothing else about the table changes.
    @Test func aRoleWithoutCreateServesAndEdits() throws {
        let role = "lowly_" + UUID().uuidString.prefix(8).lowercased()
        let url = try PostgresCluster.freshDatabase()
        #expect(try runBinary(["--db", url, "init"]).code == 0)
        try PostgresCluster.psql(url, """
            CREATE TABLE notes (id integer PRIMARY KEY, v text);
            INSERT INTO notes VALUES (1, 'a');
            CREATE ROLE \(role) LOGIN;
            REVOKE CREATE ON SCHEMA public FROM PUBLIC;
            GRANT USAGE ON SCHEMA public TO \(role);
            GRANT ALL ON ALL TABLES IN SCHEMA public TO \(role);
            GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO \(role);
            """)
        let lowly = url.replacingOccurrences(of: "postgresql://formstore@", with: "postgresql://\(role)@")
        let store = try PostgresFormStore(pool: PostgresPool(url: lowly))
        let form = try #require(try store.inferredForm(table: "notes"))
        let observation = try store.observeCommits {}
        _ = try store.load(form, key: RecordKey("id", 1))
        #expect(store.unwatchedTables["notes"]?.contains("permission denied") == true, "\(store.unwatchedTables)")
        observation.cancel()
        let server = try ServeProcess(db: lowly)
        let patched = try server.request("PATCH", "/api/forms/notes/records/1", json: #"{"v": "b"}"#)
        #expect(patched.status == 200, "\(patched.body)")
        let edited = try runBinary(["--db", lowly, "edit", "notes", "1", "--plain"], stdin: "c\ny\n")
        #expect(edited.code == 0, "\(edited)")
        #expect(try runBinary(["--db", url, "show", "notes", "1"]).output == "id: 1\nv:  c\n")
    }

    /// A CHECK's refusal, of the table or of a column's domain, says the
    /// column it reads and its expression, where the server's message named
    /// only the constraint: by `set`, `new` and `import` alike.
    @Test func aCheckRefusalNamesItsColumnAndExpression() throws {
        let url = try PostgresCluster.freshDatabase()
        try PostgresCluster.psql(url, """
            CREATE DOMAIN posint AS integer CHECK (VALUE > 0);
            CREATE TABLE ck (id integer PRIMARY KEY, qty integer CHECK (qty > 0), size posint, lo integer, hi integer,
                             CHECK (lo < hi));
            INSERT INTO ck VALUES (1, 5, 5, 1, 2);
            """)
        let db = ["--db", url]
        let table = try runBinary(db + ["set", "ck", "1", "qty=-3"])
        #expect(table.code == 65 && table.errors == #"formstore: qty: new row for relation "ck" violates check constraint "#
            + #""ck_qty_check": CHECK ((qty > 0))"# + "\n", "\(table)")
        let domain = try runBinary(db + ["new", "ck", "id=2", "size=0"])
        #expect(domain.code == 65 && domain.errors == #"formstore: size: value for domain posint violates check constraint "#
            + #""posint_check": CHECK ((VALUE > 0))"# + "\n", "\(domain)")
        // A CHECK of two columns names no one of them.
        let pair = try runBinary(db + ["set", "ck", "1", "lo=5", "hi=1"])
        #expect(pair.code == 65 && pair.errors == #"formstore: new row for relation "ck" violates check constraint "#
            + #""ck_check": CHECK ((lo < hi))"# + "\n", "\(pair)")
        let imported = try runBinary(db + ["import", "ck"], stdin: #"{"id": 3, "size": -1}"#)
        #expect(imported.code == 65 && imported.errors.contains("line 1: size: value for domain posint"), "\(imported)")
        #expect(try runBinary(db + ["show", "ck", "1", "--format", "json"]).output.contains(#""qty": 5"#))
        // The API ties it to its field, as SQLite's CHECK is tied, so a page shows it beside the field.
        let server = try ServeProcess(db: url)
        let patched = try server.request("PATCH", "/api/forms/ck/records/1", json: #"{"size": -2}"#)
        #expect(patched.status == 422 && patched.body.contains(#""field":"size""#), "\(patched.body)")
    }

    /// A trigger that raises an exception refuses the row, as SQLite's
    /// `RAISE(ABORT, …)` does (65, the import's line named); where the row
    /// holds a secure value its message, which may quote the password, is
    /// left out, whatever the write changed: a trigger reads the stored
    /// password through `NEW` too. An import printed it whole (exit 1), and
    /// `set` of another field printed the stored one.
    @Test func aTriggersExceptionRefusesTheRowAndNeverQuotesAPassword() throws {
        let backend = try TestBackend(.postgres, schema: Schema(sqlite: "", postgres: """
            CREATE TABLE users (id integer PRIMARY KEY, login text, password text);
            INSERT INTO users VALUES (1, 'ann', 'hunter2');
            CREATE FUNCTION check_user() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
                IF NEW.password LIKE '%bad%' THEN RAISE EXCEPTION 'password % is weak', NEW.password; END IF;
                IF NEW.login = 'leak' THEN RAISE EXCEPTION 'login refused (password %)', NEW.password; END IF;
                RETURN NEW; END $$;
            CREATE TRIGGER check_user BEFORE INSERT OR UPDATE ON users FOR EACH ROW EXECUTE FUNCTION check_user();
            CREATE FUNCTION keep_user() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
                RAISE EXCEPTION 'cannot delete, password is %', OLD.password; END $$;
            CREATE TRIGGER keep_user BEFORE DELETE ON users FOR EACH ROW EXECUTE FUNCTION keep_user();
            CREATE TABLE tags (id integer PRIMARY KEY, name text);
            INSERT INTO tags VALUES (1, 'a');
            CREATE FUNCTION check_tag() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
                IF NEW.name = 'zz' THEN RAISE EXCEPTION 'tag % is taken', NEW.name; END IF; RETURN NEW; END $$;
            CREATE TRIGGER check_tag BEFORE INSERT OR UPDATE ON tags FOR EACH ROW EXECUTE FUNCTION check_tag();
            """))
        let db = ["--db", backend.location]
        let secret = try runBinary(db + ["import", "users"], stdin: #"{"id": 1, "password": "badTopSecret9"}"# + "\n")
        #expect(secret.code == 65 && secret.errors.contains("line 1: rejected by the database (SQLSTATE P0001)")
                && !secret.errors.contains("TopSecret"), "\(secret)")
        // The stored password, quoted by a trigger on a change of another field.
        for run in [try runBinary(db + ["set", "users", "1", "login=leak"]),
                    try runBinary(db + ["set", "users", "1", "--json"], stdin: #"{"login": "leak"}"#),
                    try runBinary(db + ["import", "users"], stdin: #"{"id": 1, "login": "leak"}"# + "\n")] {
            #expect(run.code == 65 && !run.errors.contains("hunter2"), "\(run)")
        }
        // A delete's refusal too, which printed it whole.
        let deleted = try runBinary(db + ["delete", "users", "1", "--yes"])
        #expect(deleted.code == 65 && !deleted.errors.contains("hunter2")
                && deleted.errors.contains("as it could quote a secure value the row holds (password)"), "\(deleted)")
        let tag = try runBinary(db + ["import", "tags"], stdin: #"{"id": 2, "name": "zz"}"# + "\n")
        #expect(tag.code == 65 && tag.errors.contains("line 1: tag zz is taken"), "\(tag)")
        let set = try runBinary(db + ["set", "tags", "1", "name=zz"])
        #expect(set.code == 65 && set.errors == "formstore: tag zz is taken\n", "\(set)")
        #expect(try backend.row("SELECT login, password FROM users") == ["ann", "hunter2"])
    }

    /// A row a trigger drops (a `BEFORE` trigger returning NULL) is refused
    /// by an import, as by `set` and `new`: it was counted new or updated.
    @Test func anImportedRowATriggerDropsIsRefused() throws {
        let backend = try TestBackend(.postgres, schema: Schema(sqlite: "", postgres: """
            CREATE TABLE ign (id integer PRIMARY KEY, v text);
            INSERT INTO ign VALUES (1, 'a');
            CREATE FUNCTION drop_skips() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN IF NEW.v = 'skip' THEN RETURN NULL; END IF; RETURN NEW; END $$;
            CREATE TRIGGER drop_skips BEFORE INSERT OR UPDATE ON ign FOR EACH ROW EXECUTE FUNCTION drop_skips();
            """))
        let db = ["--db", backend.location]
        let updated = try runBinary(db + ["import", "ign"], stdin: #"{"id": 1, "v": "skip"}"# + "\n")
        #expect(updated.code == 65 && updated.errors.contains("line 1: a trigger on 'ign' ignored the update"), "\(updated)")
        let inserted = try runBinary(db + ["import", "ign"], stdin: #"{"id": 3, "v": "b"}"# + "\n" + #"{"id": 4, "v": "skip"}"# + "\n")
        #expect(inserted.code == 65 && inserted.errors.contains("line 2: a trigger on 'ign' ignored the insert"), "\(inserted)")
        #expect(try backend.count("SELECT count(*) FROM ign") == 1)
        let fine = try runBinary(db + ["import", "ign"], stdin: #"{"id": 1, "v": "b"}"# + "\n" + #"{"id": 3, "v": "c"}"# + "\n")
        #expect(fine.code == 0 && fine.errors.contains("1 new, 1 updated"), "\(fine)")
    }

    /// A statement the server cancels for its `statement_timeout` is a
    /// moment's refusal, as a lock held too long is: 75, "try again", and
    /// nothing changed. It was a storage error (74).
    @Test func aStatementTheServerCancelsIsTryAgain() throws {
        let url = try PostgresCluster.freshDatabase()
        try PostgresCluster.psql(url, """
            CREATE TABLE slow (id integer PRIMARY KEY, note text);
            CREATE FUNCTION wait_a_while() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(2); RETURN NEW; END $$;
            CREATE TRIGGER wait BEFORE UPDATE ON slow FOR EACH ROW EXECUTE FUNCTION wait_a_while();
            INSERT INTO slow VALUES (1, 'a');
            """)
        let limited = url + (url.contains("?") ? "&" : "?") + "options=-c%20statement_timeout%3D200"
        let set = try runBinary(["--db", limited, "set", "slow", "1", "note=b"])
        #expect(set.code == 75 && set.errors.contains("statement timeout") && set.errors.contains("(try again)"), "\(set)")
        let row = try runBinary(["--db", url, "show", "slow", "1", "--format", "json"])
        #expect(row.output.contains(#""note": "a""#), "\(row)")
    }

    @Test func aTriggerThatSetsANumberIsTakenAsItsOwn() throws {
        let backend = try TestBackend(.postgres, schema: Schema(sqlite: "", postgres: """
            CREATE TABLE doc (id integer PRIMARY KEY, title text, version integer NOT NULL DEFAULT 0);
            CREATE FUNCTION bump() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN NEW.version := COALESCE(OLD.version, 0) + 1; RETURN NEW; END $$;
            CREATE TRIGGER bump BEFORE INSERT OR UPDATE ON doc FOR EACH ROW EXECUTE FUNCTION bump();
            CREATE TABLE price (id integer PRIMARY KEY, p numeric(8,2));
            INSERT INTO price VALUES (1, 1);
            """))
        let db = ["--db", backend.location]
        let made = try runBinary(db + ["new", "doc", "id=1", "title=a"])
        #expect(made.code == 0, "\(made)")
        let set = try runBinary(db + ["set", "doc", "1", "title=b"])
        #expect(set.code == 0, "\(set)")
        #expect(try backend.row("SELECT title, version FROM doc") == ["b", "2"])
        // A column's rounding, on a table without such a trigger, is still refused.
        let rounded = try runBinary(db + ["set", "price", "1", "p=1.234"])
        #expect(rounded.code == 65 && rounded.errors.contains("would be stored as 1.23"), "\(rounded)")
        // A time cut to its column's precision is said to the microsecond: to the millisecond both read `.123`.
        try backend.execute("CREATE TABLE stamp (id integer PRIMARY KEY, t3 timestamp(3)); INSERT INTO stamp VALUES (1, '2024-01-01')")
        let cut = try runBinary(db + ["set", "stamp", "1", "t3=2024-01-01 00:00:00.1234"])
        #expect(cut.code == 65 && cut.errors.contains("2024-01-01T00:00:00.123400Z would be stored as 2024-01-01T00:00:00.123Z"),
                "\(cut)")
    }

    /// A `numeric` holding more digits than a double is put back by a revert
    /// as its text, every digit: it was refused ("amount cannot hold text").
    @Test func aRevertPutsBackEveryDigitOfANumeric() throws {
        let backend = try TestBackend(.postgres, schema: Schema(sqlite: "", postgres: """
            CREATE TABLE shift (id integer PRIMARY KEY, amount numeric);
            INSERT INTO shift VALUES (1, 123456789012345678901234567890.5);
            """))
        let db = ["--db", backend.location]
        #expect(try runBinary(db + ["init"]).code == 0)
        #expect(try runBinary(db + ["set", "shift", "1", "amount=1"]).code == 0)
        let reverted = try runBinary(db + ["revert", "shift", "1", "--change", "1"])
        #expect(reverted.code == 0, "\(reverted)")
        #expect(try backend.row("SELECT amount::text FROM shift") == ["123456789012345678901234567890.5"])
    }

    /// A row the role reads but row-level security does not let it change or
    /// delete is said so: `set` said it was deleted (exit 66), and `delete`
    /// blamed a trigger the table does not have.
    @Test func rowLevelSecurityIsNamed() throws {
        let role = "app_" + UUID().uuidString.prefix(8).lowercased()
        let backend = try TestBackend(.postgres, schema: Schema(sqlite: "", postgres: """
            CREATE TABLE notes (id integer PRIMARY KEY, owner text, v text);
            INSERT INTO notes VALUES (1, '\(role)', 'mine'), (2, 'bob', 'theirs');
            ALTER TABLE notes ENABLE ROW LEVEL SECURITY;
            CREATE POLICY r ON notes FOR SELECT USING (true);
            CREATE POLICY u ON notes FOR UPDATE USING (owner = current_user);
            CREATE POLICY d ON notes FOR DELETE USING (owner = current_user);
            CREATE POLICY i ON notes FOR INSERT WITH CHECK (owner = current_user);
            CREATE ROLE \(role) LOGIN;
            GRANT ALL ON notes TO \(role);
            ALTER DEFAULT PRIVILEGES GRANT ALL ON TABLES TO \(role);
            ALTER DEFAULT PRIVILEGES GRANT ALL ON SEQUENCES TO \(role);
            """))
        let url = backend.location.replacingOccurrences(of: "postgresql://formstore@", with: "postgresql://\(role)@")
        #expect(url != backend.location)
        let db = ["--db", url]
        #expect(try runBinary(db + ["set", "notes", "1", "v=ok"]).code == 0)
        let set = try runBinary(db + ["set", "notes", "2", "v=x"])
        #expect(set.code == 65 && set.errors.contains("the row-level security of 'notes' does not let this role change the record"),
                "\(set)")
        let deleted = try runBinary(db + ["delete", "notes", "2", "--yes"])
        #expect(deleted.code == 65 && deleted.errors.contains("does not let this role delete the record"), "\(deleted)")
        #expect(try backend.row("SELECT v FROM notes WHERE id = 2") == ["theirs"])
        #expect(try backend.row("SELECT v FROM notes WHERE id = 1") == ["ok"])
        // A row the policy does not let this role write is the row's problem (65), not the database's (74).
        let new = try runBinary(db + ["new", "notes", "id=3", "owner=bob", "v=x"])
        #expect(new.code == 65 && new.errors.contains("new row violates row-level security policy for table \"notes\" "
            + "(the row-level security does not let this role write such a row)"), "\(new)")
        #expect(!new.errors.contains("postgresql://"), "\(new)")
        #expect(try backend.count("SELECT count(*) FROM notes") == 2)
    }
}
