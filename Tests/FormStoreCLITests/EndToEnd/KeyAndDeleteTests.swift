import FormStoreTestSupport
import Foundation
import Testing
@testable import FormStoreCLI

/// A new record's declared key is named when it is missing, and `delete`
/// shows what it deletes and says who refers to a record it cannot delete.
/// The database is an application's, built by the `sqlite3` shell with its
/// foreign keys declared.
@Suite struct KeyAndDeleteTests {
    static let schema = """
    CREATE TABLE countries (code TEXT PRIMARY KEY, name TEXT);
    CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT REFERENCES countries(code));
    CREATE TABLE orders (id INTEGER PRIMARY KEY, customer INTEGER REFERENCES customers(id), total REAL);
    CREATE TABLE lines ("order" INTEGER, line INTEGER, qty INTEGER, PRIMARY KEY ("order", line),
                        FOREIGN KEY ("order") REFERENCES orders(id)) WITHOUT ROWID;
    INSERT INTO countries VALUES ('PL', 'Poland'), ('JP', 'Japan');
    INSERT INTO customers VALUES (1, 'Ann', 'PL'), (2, 'Bob', NULL);
    INSERT INTO orders VALUES (10, 1, 9.5);
    """

    /// A delete through a view's INSTEAD OF DELETE trigger is said as done:
    /// SQLite counts no rows changed through a view, and the command said
    /// "no record with key 1" (exit 66) for the record it had just deleted.
    /// A trigger that drops a write without an error (`RAISE(IGNORE)`) is
    /// said, and nothing is written, where every command reported success.
    @Test func writesThroughTriggersAreReportedAsTheyHappened() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT);
            INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c');
            CREATE VIEW tv AS SELECT id, name FROM t;
            CREATE TRIGGER tv_delete INSTEAD OF DELETE ON tv BEGIN DELETE FROM t WHERE id = OLD.id AND OLD.name <> 'c'; END;
            CREATE TRIGGER tv_update INSTEAD OF UPDATE ON tv BEGIN SELECT 1; END;
            CREATE TRIGGER skip_update BEFORE UPDATE ON t WHEN NEW.name = 'skip' BEGIN SELECT RAISE(IGNORE); END;
            CREATE TRIGGER skip_insert BEFORE INSERT ON t WHEN NEW.name = 'skip' BEGIN SELECT RAISE(IGNORE); END;
            CREATE TRIGGER keep_two BEFORE DELETE ON t WHEN OLD.id = 2 BEGIN SELECT RAISE(IGNORE); END;
            """)
        let spec = try demo.file("forms/tv.json", #"""
            {"formstore": 1, "name": "tv", "table": "tv", "primaryKey": ["id"],
             "sections": [{"fields": [{"key": "id", "label": "id", "kind": "integer"}, {"key": "name", "label": "name"}]}]}
            """#)
        demo.formsDirectory = (spec as NSString).deletingLastPathComponent
        let deleted = try demo.run(["delete", "tv", "1", "--yes"])
        #expect(deleted.code == 0 && deleted.errors.contains("Deleted tv 1"), "\(deleted)")
        #expect(try demo.query("SELECT id FROM t ORDER BY id") == "2\n3\n")
        let before = try demo.dump()
        let kept = try demo.run(["delete", "tv", "3", "--yes"])
        #expect(kept.code == 65 && kept.errors == "formstore: the INSTEAD OF trigger of view 'tv' did not carry out the delete: "
                + "nothing was written\n", "\(kept)")
        // An INSTEAD OF UPDATE that does nothing is said, where the save was reported (`name  c  c`).
        let nothing = try demo.run(["set", "tv", "3", "name=z"])
        #expect(nothing.code == 65 && nothing.errors.contains("the INSTEAD OF trigger of view 'tv' did not carry out the update"),
                "\(nothing)")
        let missing = try demo.run(["delete", "tv", "9", "--yes"])
        #expect(missing.code == 66, "\(missing)")
        let update = try demo.run(["set", "t", "2", "name=skip"])
        #expect(update.code == 65 && update.errors.contains("a trigger on 't' ignored the update (RAISE(IGNORE)): nothing was written"),
                "\(update)")
        let insert = try demo.run(["new", "t", "id=7", "name=skip"])
        #expect(insert.code == 65 && insert.errors.contains("ignored the insert"), "\(insert)")
        let delete = try demo.run(["delete", "t", "2", "--yes"])
        #expect(delete.code == 65 && delete.errors.contains("ignored the delete"), "\(delete)")
        let imported = try demo.run(["import", "t"], stdin: "{\"id\": 2, \"name\": \"skip\"}\n{\"id\": 8, \"name\": \"skip\"}\n")
        // Each line named, as any refused row is: the first stopped the whole import, unnamed.
        #expect(imported.code == 65 && imported.errors.contains("line 1: a trigger on 't' ignored the update")
                && imported.errors.contains("line 2: a trigger on 't' ignored the insert"), "\(imported)")
        #expect(try demo.dump() == before)
    }

    @Test func anEmptyTextKeyOnNewIsNamedAsRequired() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let before = try demo.dump()
        let run = try demo.run(["new", "countries", "name=Chile"])
        #expect(run.code == 65)
        #expect(run.errors == "formstore: new countries record: validation failed; nothing was saved\n"
                + "  code: code is required (its column is NOT NULL: code:=\"\" stores empty text)\n")
        let composite = try demo.run(["new", "lines", "order=10", "qty=2"])
        #expect(composite.code == 65)
        #expect(composite.errors.contains("  line: line is required\n"))
        #expect(try demo.dump() == before)
        let given = try demo.run(["new", "countries", "code=CL", "name=Chile"])
        #expect(given.code == 0, "\(given)")
        #expect(try demo.query("SELECT name FROM countries WHERE code = 'CL'") == "Chile\n")
    }

    /// Every key the command prints reads back as its record: an empty
    /// text key as `k=` and one starting with `-` as `k=-x` (alone, `''` is no
    /// key and `-x` an option), a backslash or comma escaped. `new` printed
    /// the key unescaped, and the resume line `edit tk ''`.
    @Test func theKeysTheCommandPrintsReadBack() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE tk (k TEXT PRIMARY KEY, v);
            CREATE TABLE wr (a TEXT, b TEXT, v, PRIMARY KEY (a, b));
            """)
        let cases: [([String], String)] = [
            (["new", "tk", #"k:="""#, "v=1"], "Created tk k=.\n"),
            (["new", "tk", "--", "k=-x", "v=2"], "Created tk k=-x.\n"),
            (["new", "tk", #"k=a\b"#, "v=3"], #"Created tk a\\b."# + "\n"),
            (["new", "wr", #"a:="""#, "b=x,y", "v=4"], #"Created wr a=,b=x\,y."# + "\n"),
        ]
        for (arguments, said) in cases {
            let created = try demo.run(arguments)
            #expect(created.code == 0 && created.errors == said, "\(created)")
            let key = String(said.dropFirst("Created tk ".count).dropLast(2))
            let shown = try demo.run(["show", arguments[1], "--", key])
            #expect(shown.code == 0 && shown.output.contains("v: \(arguments.last!.dropFirst(2))"), "\(key): \(shown)")
        }
        // The line to resume an interrupted edit names the key so.
        let interrupted = try demo.run(["edit", "tk", "k=", "--plain"], stdin: "2\n")
        #expect(interrupted.errors.contains(" edit tk k=  (the draft is offered)\n"), "\(interrupted)")
    }

    /// SQLite lets a declared key that is not the rowid hold NULL (a quirk
    /// kept for old schemas). Such a row is named `code:=null`, is shown,
    /// set, deleted and found by its key, and an unchanged export of its
    /// table imports back as unchanged in every format. Before, no key found
    /// it, and the import refused it as a new row without its key.
    @Test func aRowWhoseKeyIsNullIsNamedCodeNull() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE t (code TEXT PRIMARY KEY, name TEXT);
            INSERT INTO t VALUES ('a', 'A'), (NULL, 'null row'), ('', 'empty row');
            CREATE TABLE pair (a TEXT, b INTEGER, v TEXT, PRIMARY KEY (a, b));
            INSERT INTO pair VALUES ('x', NULL, 'one'), ('x', 1, 'two');
            """)
        let shown = try demo.run(["show", "t", "code:=null"])
        #expect(shown.code == 0 && shown.output == "code:\nname: null row\n", "\(shown)")
        let set = try demo.run(["set", "t", "code:=null", "name=changed"])
        #expect(set.code == 0, "\(set)")
        #expect(try demo.query("SELECT quote(code), name FROM t ORDER BY rowid") == "'a'|A\nNULL|changed\n''|empty row\n")
        let composite = try demo.run(["set", "pair", "a=x,b:=null", "v=uno"])
        #expect(composite.code == 0, "\(composite)")
        #expect(try demo.query("SELECT v FROM pair ORDER BY rowid") == "uno\ntwo\n")

        let before = try demo.dump()
        for format in ["json", "ndjson", "csv"] {
            let exported = try demo.run(["export", "t", "--format", format])
            #expect(exported.code == 0, "\(exported)")
            let file = try demo.file("t.\(format)", exported.output)
            let imported = try demo.run(["import", "t", file, "--format", format])
            #expect(imported.code == 0 && imported.errors.contains("0 new, 0 updated, 3 unchanged"), "\(format): \(imported)")
        }
        #expect(try demo.dump() == before)
        // A NULL key given to import names the stored row, not a second one.
        let file = try demo.file("n.ndjson", #"{"code": null, "name": "imported"}"# + "\n")
        let imported = try demo.run(["import", "t", file])
        #expect(imported.code == 0 && imported.errors.contains("0 new, 1 updated"), "\(imported)")
        #expect(try demo.query("SELECT count(*), max(name) FROM t WHERE code IS NULL") == "1|imported\n")

        let deleted = try demo.run(["delete", "t", "code:=null", "--yes"])
        #expect(deleted.code == 0 && deleted.errors == "Deleted t code:=null.\n", "\(deleted)")
        #expect(try demo.query("SELECT quote(code) FROM t ORDER BY rowid") == "'a'\n''\n")
        // NULL is not the text 'NULL', nor empty text.
        #expect(try demo.run(["show", "t", "code:=null"]).code == 66)
        // Two rows holding a NULL key cannot be told apart: `show` says so, as `set` does (it showed the first).
        try demo.query("INSERT INTO t VALUES (NULL, 'n1'), (NULL, 'n2')")
        let two = try demo.run(["show", "t", "code:=null"])
        #expect(two.code == 65 && two.errors.contains("the key names more than one row of 't'"), "\(two)")
    }

    /// A key column of no type may hold 5 and '5': the key `5` names both,
    /// and `show` says so as `set` does, where it showed one of them. A key
    /// naming one row of such a column is found, whichever it holds.
    @Test func anUntypedKeyNamingTwoRowsIsRefusedByShowAsBySet() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE u (id PRIMARY KEY, v);
            INSERT INTO u VALUES (5, 'integer'), ('5', 'text'), ('abc', 'word'), (2.5, 'real');
            """)
        let before = try demo.dump()
        let shown = try demo.run(["show", "u", "5"])
        #expect(shown.code == 65 && shown.output.isEmpty, "\(shown)")
        #expect(shown.errors.contains("the key names more than one row of 'u'"), "\(shown)")
        let set = try demo.run(["set", "u", "5", "v=x"])
        #expect(set.code == 65 && set.errors.contains("more than one row of 'u'"), "\(set)")
        #expect(try demo.dump() == before)
        #expect(try demo.run(["show", "u", "abc"]).output == "id: abc\nv:  word\n")
        #expect(try demo.run(["show", "u", "2.5"]).output == "id: 2.5\nv:  real\n")
    }

    @Test func aForeignKeyRefusalNamesWhoRefersToTheRecord() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let before = try demo.dump()
        let run = try demo.run(["delete", "customers", "1", "--yes"])
        #expect(run.code == 65)
        #expect(run.errors == "formstore: cannot delete customers 1: other records refer to it through orders.customer; "
            + "change or delete those first\n")
        #expect(run.output.isEmpty)
        #expect(try demo.dump() == before)
    }

    /// A delete refused further down (a row it cascades to is referred to
    /// under no rule) names the keys whose rows refer to the rows it deletes,
    /// not every key of their tables: it was SQLite's bare message.
    @Test func aRefusalThroughACascadeNamesWhoRefersToTheRowsItDeletes() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE album (id INTEGER PRIMARY KEY);
            CREATE TABLE track (id INTEGER PRIMARY KEY, album_id INTEGER REFERENCES album(id) ON DELETE CASCADE);
            CREATE TABLE pl (id INTEGER PRIMARY KEY, track_id INTEGER REFERENCES track(id));
            CREATE TABLE other (id INTEGER PRIMARY KEY, track_id INTEGER REFERENCES track(id));
            CREATE TABLE unused (id INTEGER PRIMARY KEY, track_id INTEGER REFERENCES track(id) ON DELETE RESTRICT);
            INSERT INTO album VALUES (1), (2); INSERT INTO track VALUES (1, 1), (2, 2);
            INSERT INTO pl VALUES (1, 1); INSERT INTO other VALUES (1, 2);

            """)
        let before = try demo.dump()
        let run = try demo.run(["delete", "album", "1", "--yes"])
        #expect(run.code == 65)
        #expect(run.errors == "formstore: cannot delete album 1: other records refer to the rows it deletes with it "
                + "(of track) through pl.track_id; change or delete those first\n", "\(run)")
        #expect(try demo.dump() == before)
    }

    /// `ON DELETE RESTRICT`, which SQLite carries out as a trigger's RAISE,
    /// is refused with the same sentence as a key with no rule, naming only
    /// the keys under which rows refer to the record.
    @Test func aRestrictRuleNamesWhoRefersToTheRecord() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE p (id INTEGER PRIMARY KEY);
            CREATE TABLE c (id INTEGER PRIMARY KEY, p INTEGER REFERENCES p(id) ON DELETE RESTRICT);
            CREATE TABLE unused (id INTEGER PRIMARY KEY, p INTEGER REFERENCES p(id));
            INSERT INTO p VALUES (1); INSERT INTO c VALUES (1, 1);

            """)
        let before = try demo.dump()
        let run = try demo.run(["delete", "p", "1", "--yes"])
        #expect(run.code == 65)
        #expect(run.errors == "formstore: cannot delete p 1: other records refer to it through c.p; change or delete those first\n")
        #expect(try demo.dump() == before)
    }

    /// A record referring to itself (its own manager) is deleted, and where
    /// another table holds it back, the refusal names only that table: its
    /// own reference, which goes with it, was named as holding it back too.
    @Test func aRecordReferringToItselfIsNotNamedAsHoldingItselfBack() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE emp (id INTEGER PRIMARY KEY, name TEXT, manager_id INTEGER REFERENCES emp(id));
            CREATE TABLE dept (id INTEGER PRIMARY KEY, head INTEGER REFERENCES emp(id));
            INSERT INTO emp VALUES (4, 'Zoë', 4), (5, 'Max', 5);
            INSERT INTO dept VALUES (1, 5);
            """)
        let zoe = try demo.run(["delete", "emp", "4", "--yes"])
        #expect(zoe.code == 0 && zoe.errors == "Deleted emp 4.\n", "\(zoe)")
        let max = try demo.run(["delete", "emp", "5", "--yes"])
        #expect(max.code == 65)
        #expect(max.errors == "formstore: cannot delete emp 5: other records refer to it through dept.head; "
            + "change or delete those first\n", "\(max)")
        #expect(try demo.query("SELECT id FROM emp") == "5\n")
    }

    @Test func deleteWithYesPrintsTheDeletedRecord() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let run = try demo.run(["delete", "customers", "2", "--yes"])
        #expect(run.code == 0, "\(run)")
        #expect(run.output == "id:      2\nname:    Bob\ncountry:\n")
        #expect(run.errors == "Deleted customers 2.\n")
        #expect(try demo.query("SELECT count(*) FROM customers WHERE id = 2") == "0\n")
    }

    @Test func deleteShowsTheRecordBeforeAsking() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        // On a colour terminal too: the record on stderr has no escape codes (they were shown as `\e[1m`).
        let kept = runTool(["--db", demo.path, "delete", "customers", "2"], environment: ["TERM": "xterm"], stdin: "n\n",
                           stdinIsTerminal: true, outputIsTerminal: true)
        #expect(kept.code == .success)
        #expect(kept.errors.hasPrefix("id:      2\nname:    Bob\ncountry:\nDelete customers 2? [y/N] "))
        #expect(kept.errors.hasSuffix("Not deleted.\n"))
        #expect(kept.output.isEmpty)
        let gone = runTool(["--db", demo.path, "delete", "customers", "2"], stdin: "y\n", stdinIsTerminal: true)
        #expect(gone.code == .success)
        #expect(gone.errors.hasSuffix("Deleted customers 2.\n"))
        #expect(try demo.query("SELECT count(*) FROM customers WHERE id = 2") == "0\n")
    }

    /// The question names what the schema's ON DELETE rules do to the rows
    /// that refer to the record, before anything goes.
    @Test func theQuestionSaysWhatTheOnDeleteRulesDo() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE books (id INTEGER PRIMARY KEY, author_id INTEGER REFERENCES authors(id) ON DELETE CASCADE);
            INSERT INTO authors VALUES (1, 'Ann');
            INSERT INTO books VALUES (10, 1), (11, 1);
            """)
        let kept = runTool(["--db", demo.path, "delete", "authors", "1"], stdin: "n\n", stdinIsTerminal: true)
        #expect(kept.errors.contains("Delete authors 1, with 2 rows of books deleted (ON DELETE CASCADE)? [y/N] "),
                "\(kept.errors)")
        #expect(try demo.query("SELECT count(*) FROM books") == "2\n")
        let gone = runTool(["--db", demo.path, "delete", "authors", "1"], stdin: "y\n", stdinIsTerminal: true)
        #expect(gone.errors.hasSuffix("Deleted authors 1, with 2 rows of books deleted (ON DELETE CASCADE).\n"))
        #expect(try demo.query("SELECT count(*) FROM books") == "0\n")
    }

    /// A `COLLATE NOCASE` key's rows are counted as SQLite matches them, by
    /// the parent's collation: all three children of `'cd'` go, and the
    /// `'EF'` row of `'ef'` is cleared (the count said 1 and nothing).
    @Test func aNocaseKeysRowsAreCountedAsTheDatabaseMatchesThem() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE parent (code TEXT PRIMARY KEY COLLATE NOCASE, name TEXT);
            CREATE TABLE child (id INTEGER PRIMARY KEY, pcode TEXT REFERENCES parent(code) ON DELETE CASCADE);
            CREATE TABLE note (id INTEGER PRIMARY KEY, pcode TEXT REFERENCES parent(code) ON DELETE SET NULL);
            INSERT INTO parent VALUES ('cd', 'x'), ('ef', 'y');
            INSERT INTO child VALUES (1, 'cd'), (2, 'CD'), (3, 'Cd');
            INSERT INTO note VALUES (1, 'EF');
            """)
        let shown = try demo.run(["show", "parent", "cd", "--children", "--format", "json"])
        #expect(shown.output.contains(#"{"id": 2}"#) && shown.output.contains(#"{"id": 3}"#), "\(shown)")
        let cascade = try demo.run(["delete", "parent", "cd", "--yes"])
        #expect(cascade.errors.hasSuffix("Deleted parent cd, with 3 rows of child deleted (ON DELETE CASCADE).\n"), "\(cascade)")
        let cleared = try demo.run(["delete", "parent", "ef", "--yes"])
        #expect(cleared.errors.hasSuffix("Deleted parent ef, with note.pcode cleared in 1 row (ON DELETE SET NULL).\n"), "\(cleared)")
        #expect(try demo.query("SELECT count(*) FROM child; SELECT quote(pcode) FROM note") == "0\nNULL\n")
        // Under no rule, a row holding the key in another case holds the record back, and is named.
        try demo.query("CREATE TABLE pin (id INTEGER PRIMARY KEY, pcode TEXT REFERENCES parent(code)); "
                       + "INSERT INTO parent VALUES ('gh', 'z'); INSERT INTO pin VALUES (1, 'GH')")
        let held = try demo.run(["delete", "parent", "gh", "--yes"])
        #expect(held.code == 65 && held.errors.contains("other records refer to it through pin.pcode"), "\(held)")
    }
}

/// A key column of dates stored in several layouts: each row is found by its
/// key as stored. Bound as the date it reads as, in the column's usual
/// layout, a key found the row of another layout holding the same instant
/// (`delete` removed it, `set` changed it, and an unchanged export imported
/// back overwrote it), and no row where the layout was another.
@Suite struct DateKeyTests {
    static let schema = """
        CREATE TABLE k (ts DATETIME PRIMARY KEY, v TEXT);
        INSERT INTO k VALUES ('2024-01-02 10:00:00', 'a'), ('2024-01-02T10:00:00Z', 'b'), ('2024-03-04T05:06:07Z', 'c');
        """

    @Test func eachRowIsFoundByItsKeyAsStored() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let set = try demo.run(["set", "k", "2024-01-02T10:00:00Z", "v=B"])
        #expect(set.code == 0, "\(set)")
        #expect(try demo.query("SELECT ts, v FROM k ORDER BY rowid")
            == "2024-01-02 10:00:00|a\n2024-01-02T10:00:00Z|B\n2024-03-04T05:06:07Z|c\n")
        // Typed as `list` shows it, a key of another layout finds its row, and the write reaches that row.
        let shown = try demo.run(["set", "k", "2024-03-04 05:06:07", "v=C"])
        #expect(shown.code == 0, "\(shown)")
        #expect(try demo.query("SELECT v FROM k WHERE ts = '2024-03-04T05:06:07Z'") == "C\n")
        let deleted = try demo.run(["delete", "k", "2024-01-02T10:00:00Z", "--yes"])
        #expect(deleted.code == 0, "\(deleted)")
        #expect(try demo.query("SELECT ts, v FROM k ORDER BY rowid") == "2024-01-02 10:00:00|a\n2024-03-04T05:06:07Z|C\n")
    }

    @Test func anUnchangedExportImportsBackAsNoChange() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let before = try demo.dump()
        let exported = try demo.run(["export", "k"])
        let imported = try demo.run(["import", "k"], stdin: exported.output)
        #expect(imported.code == 0 && imported.errors == "Imported 3 row(s): 0 new, 0 updated, 3 unchanged.\n", "\(imported)")
        #expect(try demo.dump() == before)
        let empty = try DemoDatabase(sql: "CREATE TABLE k (ts DATETIME PRIMARY KEY, v TEXT);")
        let copied = try empty.run(["import", "k"], stdin: exported.output)
        #expect(copied.code == 0 && copied.errors.contains("3 new"), "\(copied)")
        #expect(try empty.query("SELECT ts, v FROM k ORDER BY ts") == "2024-01-02 10:00:00|a\n2024-01-02T10:00:00Z|b\n2024-03-04T05:06:07Z|c\n")
    }
}

