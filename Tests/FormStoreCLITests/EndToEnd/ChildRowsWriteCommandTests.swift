import FormStoreTestSupport
import Foundation
import Testing

/// `export --children`, `new --json --children` and `set FORM KEY --json
/// --children`, through the built binary, on databases the `sqlite3` shell made.
@Suite struct ChildRowsWriteCommandTests {
    static let playlists = """
        CREATE TABLE playlist (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE track (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
        CREATE TABLE playlist_track (
            playlist_id INTEGER NOT NULL REFERENCES playlist(id),
            track_id INTEGER NOT NULL REFERENCES track(id),
            position INTEGER NOT NULL,
            PRIMARY KEY (playlist_id, track_id)
        );
        INSERT INTO playlist VALUES (1, 'Morning'), (2, 'Empty');
        INSERT INTO track VALUES (1, 'Intro'), (2, 'Song'), (3, 'Outro');
        INSERT INTO playlist_track VALUES (1, 2, 1), (1, 1, 0), (1, 3, 2);
        """

    @Test func exportCarriesChildRowsAsNestedArrays() throws {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        let ndjson = try demo.run(["export", "invoice", "--children"])
        #expect(ndjson.code == 0, "\(ndjson)")
        #expect(ndjson.output == """
            {"id": 1, "customer": "Ann", "total": 5.5, "invoice_line": [{"id": 10, "item": "Tea", "amount": 2.5}, {"id": 11, "item": "Cake", "amount": 3.5}]}
            {"id": 2, "customer": "Bo", "total": 0, "invoice_line": []}

            """)
        let json = try demo.run(["export", "invoice", "--children", "--format", "json", "--where", "id=2"])
        #expect(json.output == "[\n  {\"id\": 2, \"customer\": \"Bo\", \"total\": 0, \"invoice_line\": []}\n]\n")
    }

    @Test func csvCannotCarryChildRows() throws {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        let csv = try demo.run(["export", "invoice", "--children", "--format", "csv"])
        #expect(csv.code == 64)
        #expect(csv.output.isEmpty)
        #expect(csv.errors.hasPrefix("Error: --children needs --format json or ndjson: child rows do not fit in a flat CSV row\n"))
    }

    @Test func newInsertsTheRecordWithItsRows() throws {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        let created = try demo.run(["new", "invoice", "--json", "--children", "--format", "json"], stdin: """
            {"customer": "Cy", "total": 4, "invoice_line": [{"item": "Jam", "amount": 1.5}, {"item": "Bread", "amount": 2.5}]}
            """)
        #expect(created.code == 0, "\(created)")
        #expect(created.output.contains("\"customer\": \"Cy\""))
        #expect(created.output.contains("\"item\": \"Jam\", \"amount\": 1.5}"))
        #expect(try demo.query("SELECT item, amount FROM invoice_line WHERE invoice_id = 3 ORDER BY id")
                == "Jam|1.5\nBread|2.5\n")
    }

    @Test func childrenNeedJSON() throws {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        let run = try demo.run(["new", "invoice", "customer=Cy", "--children"])
        #expect(run.code == 64)
        #expect(run.errors.hasPrefix("Error: --children takes the child rows from a JSON object: give --json\n"))
    }

    @Test func setUpdatesInsertsAndDeletesRowsInOneSave() throws {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        // Row 10 changed, 11 left out (deleted), one without a key inserted (SQLite gives it the free rowid 11).
        let run = try demo.run(["set", "invoice", "1", "--json", "--children"], stdin: """
            {"total": 6, "invoice_line": [{"id": 10, "item": "Tea", "amount": 3}, {"item": "Pie", "amount": 3}]}
            """)
        #expect(run.code == 0, "\(run)")
        #expect(run.output.contains("invoice_line"))
        #expect(try demo.query("SELECT id, item, amount FROM invoice_line WHERE invoice_id = 1 ORDER BY id")
                == "10|Tea|3\n11|Pie|3\n")
        #expect(try demo.query("SELECT total FROM invoice WHERE id = 1") == "6\n")
    }

    @Test func aRowSQLiteRefusesWritesNothing() throws {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        let before = try demo.dump()
        let run = try demo.run(["set", "invoice", "1", "--json", "--children"], stdin: """
            {"customer": "Ann B", "invoice_line": [{"id": 10, "item": "Tea", "amount": 9}, {"item": "Pie"}]}
            """)
        #expect(run.code != 0)
        #expect(try demo.dump() == before)
    }

    /// A row stated twice is refused (the second would silently win), and
    /// dropping a row that other records refer to says who they are.
    @Test func aRowStatedTwiceOrStillReferredToIsRefusedByName() throws {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema + """

            CREATE TABLE line_note (id INTEGER PRIMARY KEY, line_id INTEGER REFERENCES invoice_line(id), body TEXT);
            INSERT INTO line_note VALUES (100, 10, 'fragile');

            """)
        let before = try demo.dump()
        let twice = try demo.run(["set", "invoice", "1", "--json", "--children"], stdin: """
            {"invoice_line": [{"id": 10, "item": "Tea"}, {"id": 11, "item": "Cake"}, {"id": 10, "item": "Jam"}]}
            """)
        #expect(twice.code == 65)
        #expect(twice.errors == "formstore: invoice 1: validation failed; nothing was saved\n"
                + "  invoice_line[#3]: has the same id as invoice_line[#1]\n")
        let dropped = try demo.run(["set", "invoice", "1", "--json", "--children"], stdin: """
            {"invoice_line": [{"id": 11, "item": "Cake"}]}
            """)
        #expect(dropped.code == 65)
        #expect(dropped.errors == "formstore: cannot save invoice 1: other records refer to the rows it would delete "
                + "(1 of invoice_line) through line_note.line_id; change or delete those first\n")
        #expect(try demo.dump() == before)
    }

    @Test func exportedRecordsReadBackWriteNothing() throws {
        for (sql, form) in [(ChildRowsCommandTests.schema, "invoice"), (Self.playlists, "playlist")] {
            let demo = try DemoDatabase(sql: sql)
            let export = try demo.run(["export", form, "--children"])
            #expect(export.code == 0, "\(export)")
            let before = try demo.dump()
            for line in export.output.split(separator: "\n") {
                let key = String(line.dropFirst(#"{"id": "#.count).prefix { $0.isNumber })
                let run = try demo.run(["set", form, key, "--json", "--children"], stdin: String(line))
                #expect(run.code == 0, "\(run)")
                #expect(run.errors == "No changes.\n", "\(form) \(key)")
            }
            #expect(try demo.dump() == before, "\(form)")
        }
    }

    /// An employee's reports are employees too: in an export of the table
    /// with `--children`, a record is a line and a row of its manager's line.
    /// Unchanged, it imports back as nothing; edited in one place only, the
    /// other would undo the edit, so the import is refused naming both lines.
    @Test func aRecordWrittenTwiceInOneImportWithOtherValuesIsRefused() throws {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        let export = try demo.run(["export", "employee", "--children"])
        #expect(export.code == 0, "\(export)")
        let before = try demo.dump()
        let unchanged = try demo.run(["import", "employee", "--children"], stdin: export.output)
        #expect(unchanged.code == 0 && unchanged.errors.contains("0 updated"), "\(unchanged)")
        let edited = export.output.replacingOccurrences(of: #"[{"id": 2, "name": "Ann"}"#, with: #"[{"id": 2, "name": "Annie"}"#)
        #expect(edited != export.output)
        let refused = try demo.run(["import", "employee", "--children"], stdin: edited)
        #expect(refused.code == 65, "\(refused)")
        #expect(refused.errors.contains("employee 2 is written by line 1 too"), "\(refused)")
        #expect(try demo.dump() == before)
        // A line whose group leaves a report out deletes it; another line writing it is refused too, either way round.
        for lines in [#"{"id": 1, "employee": [{"id": 3, "name": "Bo"}]}"# + "\n" + #"{"id": 2, "name": "Annie"}"#,
                      #"{"id": 2, "name": "Annie"}"# + "\n" + #"{"id": 1, "employee": [{"id": 3, "name": "Bo"}]}"#] {
            let deleted = try demo.run(["import", "employee", "--children"], stdin: lines)
            #expect(deleted.code == 65 && deleted.errors.contains("employee 2 is written by line 1 too"), "\(deleted)")
            #expect(try demo.dump() == before)
        }
    }

    /// An export of a self-referencing table lists each report as a line
    /// and as a row of its boss's line, with the same values: imported into
    /// an empty copy, that is no record written twice.
    @Test func aSelfReferencingExportImportsIntoAnEmptyCopy() throws {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        let export = try demo.run(["export", "employee", "--children"])
        let fresh = try DemoDatabase(sql: """
            CREATE TABLE employee (id INTEGER PRIMARY KEY, name TEXT NOT NULL, manager_id INTEGER REFERENCES employee(id));
            """)
        let run = try fresh.run(["import", "employee", "--children"], stdin: export.output)
        #expect(run.code == 0, "\(run)")
        let rows = "SELECT id, name, quote(manager_id) FROM employee ORDER BY id"
        #expect(try fresh.query(rows) == demo.query(rows))
    }

    /// A child row one line's group leaves out (deleted) and another line's
    /// group names (written) is refused naming both lines: the import moved
    /// invoice 1's line 11 to invoice 2 and blanked its amount, which no line
    /// mentioned. A parent given twice whose groups overlap is refused too.
    @Test func aChildRowWrittenByTwoLinesIsRefused() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE invoice (id INTEGER PRIMARY KEY, customer TEXT);
            CREATE TABLE invoice_line (id INTEGER PRIMARY KEY, invoice_id INTEGER REFERENCES invoice(id), item TEXT NOT NULL, amount REAL);
            INSERT INTO invoice VALUES (1, 'Ann'), (2, 'Bo');
            INSERT INTO invoice_line VALUES (10, 1, 'Tea', 1.0), (11, 1, 'Pie', 2.0), (12, 2, 'Jam', 5.0);
            """)
        let before = try demo.dump()
        let moved = try demo.run(["import", "invoice", "--children"], stdin: """
            {"id": 1, "invoice_line": [{"id": 10, "item": "Tea"}]}
            {"id": 2, "invoice_line": [{"id": 12, "item": "Jam"}, {"id": 11, "item": "Moved"}]}
            """)
        #expect(moved.code == 65 && moved.errors.contains("line 2: invoice_line 11 is written by line 1 too"), "\(moved)")
        let twice = try demo.run(["import", "invoice", "--children"], stdin: """
            {"id": 1, "invoice_line": [{"id": 10, "item": "A"}]}
            {"id": 1, "invoice_line": [{"id": 10, "item": "B"}, {"id": 11, "item": "Pie"}]}
            """)
        #expect(twice.code == 65 && twice.errors.contains("invoice 1 has its rows on line 1 too"), "\(twice)")
        // The second line leaving out a row the first named (unchanged) deleted it: refused the same way.
        let leftOut = try demo.run(["import", "invoice", "--children"], stdin: """
            {"id": 1, "invoice_line": [{"id": 10, "item": "Tea"}, {"id": 11, "item": "Pie"}]}
            {"id": 1, "invoice_line": [{"id": 10, "item": "Tea"}]}
            """)
        #expect(leftOut.code == 65 && leftOut.errors.contains("line 2: invoice 1 has its rows on line 1 too"), "\(leftOut)")
        #expect(try demo.dump() == before)
    }

    /// A child row whose primary key is NULL (SQLite allows it outside an
    /// INTEGER PRIMARY KEY) is that stored row, found by `IS NULL`: an
    /// unchanged export imports back as nothing, an edit updates it in place.
    @Test func aChildRowWithANullKeyIsUpdatedInPlace() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE invoice (id INTEGER PRIMARY KEY, customer TEXT NOT NULL);
            CREATE TABLE note (code TEXT PRIMARY KEY, invoice_id INTEGER REFERENCES invoice(id), body TEXT);
            INSERT INTO invoice VALUES (1, 'Ann');
            INSERT INTO note VALUES (NULL, 1, 'null-keyed'), ('n2', 1, 'second');
            """)
        let export = try demo.run(["export", "invoice", "--children"])
        #expect(export.output.contains(#"{"code": null, "body": "null-keyed"}"#), "\(export)")
        let before = try demo.dump()
        #expect(try demo.run(["import", "invoice", "--children"], stdin: export.output).errors.contains("1 unchanged"))
        #expect(try demo.dump() == before)
        let edited = export.output.replacingOccurrences(of: "\"null-keyed\"", with: "\"edited\"")
        let imported = try demo.run(["import", "invoice", "--children"], stdin: edited)
        #expect(imported.code == 0, "\(imported)")
        #expect(try demo.query("SELECT quote(code), body FROM note ORDER BY body") == "NULL|edited\n'n2'|second\n")
        // A row naming a key no row has is a new one.
        let added = try demo.run(["set", "invoice", "1", "--json", "--children"],
                                 stdin: #"{"note": [{"code": null, "body": "edited"}, {"code": "n2", "body": "second"}, {"code": "n3", "body": "third"}]}"#)
        #expect(added.code == 0, "\(added)")
        #expect(try demo.query("SELECT count(*) FROM note") == "3\n")
    }

    /// An export's child rows imported without `--children`, or a group
    /// given as an object: the message says what to do.
    @Test func childRowsImportedWrongSayHow() throws {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        let export = try demo.run(["export", "invoice", "--children"])
        let plain = try demo.run(["import", "invoice"], stdin: export.output)
        #expect(plain.code == 65 && plain.errors.contains("invoice_line: not a field of invoice (rows of a group? "
                                                          + "import them with --children)"), "\(plain)")
        let object = try demo.run(["import", "invoice", "--children"], stdin: #"{"id": 1, "invoice_line": {"id": 10}}"#)
        #expect(object.code == 65 && object.errors.contains("invoice_line: a group's rows are an array of row objects"),
                "\(object)")
    }

    /// A table referring to the parent by two keys (a friendship's two
    /// people) is no group of an inferred form: which key is meant is a
    /// spec's to say. `--children` says so on stderr, where it passed it over
    /// silently, and an import naming its rows is told the form's groups, not
    /// to add the `--children` it was given.
    @Test func aTableReferringByTwoKeysIsLeftOutWithANote() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE friendship (id INTEGER PRIMARY KEY, a INTEGER REFERENCES person(id),
                                     b INTEGER REFERENCES person(id), since TEXT);
            CREATE TABLE note (id INTEGER PRIMARY KEY, person_id INTEGER REFERENCES person(id), body TEXT);
            INSERT INTO person VALUES (1, 'Ann'), (2, 'Bo');
            INSERT INTO friendship VALUES (1, 1, 2, '2020');
            INSERT INTO note VALUES (1, 1, 'hi');
            """)
        let note = "formstore: note: the rows of friendship (by a; by b) are left out of --children: it refers to person "
            + "by more than one key; a spec's group names the one meant (\"foreignKey\", docs/spec.md)\n"
        let shown = try demo.run(["show", "person", "1", "--children"])
        #expect(shown.code == 0 && shown.output == "id:   1\nname: Ann\nnote:\n  id  body\n   1  hi\n", "\(shown)")
        #expect(shown.errors == note)
        let exported = try demo.run(["export", "person", "--children"])
        #expect(exported.code == 0 && exported.errors == note && !exported.output.contains("friendship"), "\(exported)")
        let before = try demo.dump()
        let imported = try demo.run(["import", "person", "--children"],
                                    stdin: #"{"id": 1, "name": "Ann", "friendship": [{"id": 1, "b": 2}]}"#)
        #expect(imported.code == 65 && imported.errors == note + """
            formstore: 1 row(s) failed validation; nothing was imported
              line 1: friendship: not a field of person (not a group of person either: its groups are note)

            """, "\(imported)")
        #expect(try demo.dump() == before)
        // Without --children nothing is said: no rows are asked for.
        #expect(try demo.run(["show", "person", "1"]).errors.isEmpty)
        // With that table the only one referring to person, the form has no group left: the
        // import is told so, where it was told to add the --children it was given.
        try demo.query("DROP TABLE note")
        let alone = try demo.run(["import", "person", "--children"],
                                 stdin: #"{"id": 1, "name": "Ann", "friendship": [{"id": 1, "b": 2}]}"#)
        #expect(alone.code == 65 && alone.errors == note + """
            formstore: 1 row(s) failed validation; nothing was imported
              line 1: friendship: not a field of person (not a group of person either: it has none)

            """, "\(alone)")
    }

    /// A new child row that names its key is written in the forms its values
    /// came in, as a new record's are: a date as `2024-3-5`.
    @Test func aNewChildRowKeepsTheFormsItCameIn() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE p (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE c (id INTEGER PRIMARY KEY, p_id INTEGER REFERENCES p(id), at DATE);
            """)
        let run = try demo.run(["import", "p", "--children"], stdin: #"{"id": 1, "name": "A", "c": [{"id": 10, "at": "2024-3-5"}]}"#)
        #expect(run.code == 0, "\(run)")
        #expect(try demo.query("SELECT quote(at) FROM c WHERE id = 10") == "'2024-3-5'\n")
    }

    /// Child rows are exported as stored, as the parent's columns are: a
    /// date kept as `2024-3-5`, a Julian day, an epoch in milliseconds, a
    /// bool's word, a DATE holding a time of day. Imported into an empty copy
    /// they come back byte for byte, and imported again they are no change.
    /// They were exported as model values (`2024-03-05`, `true`), and the
    /// JSON door refused a number for a date.
    @Test func childRowsExportAsStoredAndImportIntoAnEmptyCopyAsTheyWere() throws {
        let schema = """
            CREATE TABLE orders (id INTEGER PRIMARY KEY, placed DATE);
            CREATE TABLE line (id INTEGER PRIMARY KEY, order_id INTEGER REFERENCES orders(id), shipped DATE,
                               jd REAL, at INTEGER, flag BOOLEAN, amount NUMERIC);
            """
        let demo = try DemoDatabase(sql: schema + """
            INSERT INTO orders VALUES (1, '2024-3-5'), (2, 2460376);
            INSERT INTO line VALUES (10, 1, '2024-3-5', 2460374.5, 1709596800123, 'yes', '1.50'),
                                    (11, 1, '05.03.2024 10:30', 2460375, 1709683200, 0, NULL),
                                    (12, 2, '2024-03-05T10:00:00Z', NULL, NULL, 'no', 2),
                                    (13, 2, NULL, NULL, NULL, 2, NULL), (14, 2, NULL, NULL, NULL, -1, NULL);
            """)
        let export = try demo.run(["export", "orders", "--children"])
        #expect(export.code == 0, "\(export)")
        #expect(export.output.contains(#"{"id": 10, "shipped": "2024-3-5", "jd": 2460374.5, "at": 1709596800123, "flag": "yes", "amount": 1.5}"#),
                "\(export)")
        let fresh = try DemoDatabase(sql: schema)
        let imported = try fresh.run(["import", "orders", "--children"], stdin: export.output)
        #expect(imported.code == 0 && imported.errors == "Imported 2 row(s): 2 new, 0 updated, 0 unchanged.\n", "\(imported)")
        #expect(try fresh.dump() == demo.dump())
        let again = try fresh.run(["import", "orders", "--children"], stdin: export.output)
        #expect(again.errors == "Imported 2 row(s): 0 new, 0 updated, 2 unchanged.\n", "\(again)")
        #expect(try fresh.dump() == demo.dump())
    }

    /// A number far past any date is no date: given to a date field through
    /// JSON it ended the process (and `serve` with it), imported into a new
    /// row it was stored, and `show` of it ended the process. A Julian day
    /// with a time of day is refused for a stored DATE, as typed text is.
    @Test func aNumberNoDateHoldsIsRefusedNotACrash() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE e (id INTEGER PRIMARY KEY, ep DATETIME, jd DATE);
            INSERT INTO e VALUES (1, 1709596800, '2024-3-5'), (2, 1e30, NULL);
            """)
        let before = try demo.dump()
        for body in [#"{"ep": 1e30}"#, #"{"jd": -1e20}"#, #"{"jd": 2460390.25}"#] {
            let run = try demo.run(["set", "e", "1", "--json"], stdin: body)
            #expect(run.code == 65, "\(body): \(run)")
        }
        let imported = try demo.run(["import", "e"], stdin: #"{"id": 5, "ep": 1e30}"# + "\n")
        #expect(imported.code == 65, "\(imported)")
        #expect(try demo.dump() == before)
        // A stored one is shown as the number it is.
        let shown = try demo.run(["show", "e", "2"])
        #expect(shown.code == 0 && shown.output.contains("ep: 1e+30"), "\(shown)")
    }

    /// `set --json` takes a date as its column may store it, as `import`
    /// does: a Julian day given to a text date is written in the row's layout.
    @Test func setJSONTakesADateAsAColumnStoresIt() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE orders (id INTEGER PRIMARY KEY, placed DATE);
            CREATE TABLE line (id INTEGER PRIMARY KEY, order_id INTEGER REFERENCES orders(id), shipped DATE);
            INSERT INTO orders VALUES (1, '2024-3-5');
            INSERT INTO line VALUES (10, 1, '2024-3-5');
            """)
        let run = try demo.run(["set", "orders", "1", "--json", "--children"],
                               stdin: #"{"placed": 2460375.5, "line": [{"id": 10, "shipped": 2460376.5}]}"#)
        #expect(run.code == 0, "\(run)")
        #expect(try demo.query("SELECT quote(placed) FROM orders") == "'2024-3-6'\n")
        #expect(try demo.query("SELECT quote(shipped) FROM line") == "'2024-3-7'\n")
    }

    @Test func aPlaylistsTracksAreReordered() throws {
        let demo = try DemoDatabase(sql: Self.playlists)
        let export = try demo.run(["export", "playlist", "--children", "--where", "id=1"])
        #expect(export.output.contains("\"playlist_track\": [{\"track_id\": 1, \"position\": 0}, {\"track_id\": 2, \"position\": 1}, {\"track_id\": 3, \"position\": 2}]"),
                "\(export)")
        let run = try demo.run(["set", "playlist", "1", "--json", "--children"], stdin: """
            {"playlist_track": [{"track_id": 3, "position": 0}, {"track_id": 1, "position": 1}]}
            """)
        #expect(run.code == 0, "\(run)")
        #expect(try demo.query("SELECT track_id, position FROM playlist_track WHERE playlist_id = 1 ORDER BY position")
                == "3|0\n1|1\n")
    }

    /// A child row's cell holding what its field would not take as input (a
    /// REAL in an INTEGER column, a date in a layout it does not read) is no
    /// change when given back as exported: neither checked nor refused, as a
    /// parent's field is. The import and `set --json --children` refused
    /// such unchanged rows ("qty cannot hold a number").
    @Test func aChildCellGivenBackAsStoredIsNoChange() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE p (id INTEGER PRIMARY KEY);
            CREATE TABLE c (id INTEGER PRIMARY KEY, p_id INTEGER REFERENCES p(id), qty INTEGER, d DATE);
            INSERT INTO p VALUES (1);
            INSERT INTO c VALUES (1, 1, 1.5, '02/01/2024'), (2, 1, 1e20, '2024-01-02');
            """)
        let before = try demo.dump()
        let export = try demo.run(["export", "p", "--children"])
        let imported = try demo.run(["import", "p", "--children"], stdin: export.output)
        #expect(imported.code == 0 && imported.errors == "Imported 1 row(s): 0 new, 0 updated, 1 unchanged.\n", "\(imported)")
        let shown = try demo.run(["show", "p", "1", "--children", "--format", "json"])
        let set = try demo.run(["set", "p", "1", "--json", "--children"], stdin: shown.output)
        #expect(set.code == 0 && set.errors.contains("No changes"), "\(set)")
        #expect(try demo.dump() == before)
        // Changed, the cell is checked, and named as a number that is not whole.
        let changed = try demo.run(["set", "p", "1", "--json", "--children"],
                                   stdin: #"{"c": [{"id": 1, "qty": 2.5, "d": "02/01/2024"}, {"id": 2, "qty": 1e20}]}"#)
        #expect(changed.code == 65 && changed.errors.contains("c[#1].qty: qty must be a whole number"), "\(changed)")
        #expect(try demo.dump() == before)
    }

    @Test func importOfAnUnchangedExportWritesNothing() throws {
        for (sql, form) in [(ChildRowsCommandTests.schema, "invoice"), (Self.playlists, "playlist")] {
            for format in ["ndjson", "json"] {
                let demo = try DemoDatabase(sql: sql)
                let export = try demo.run(["export", form, "--children", "--format", format])
                let before = try demo.dump()
                let run = try demo.run(["import", form, "--children", "--format", format], stdin: export.output)
                #expect(run.code == 0, "\(run)")
                #expect(run.errors == "Imported 2 row(s): 0 new, 0 updated, 2 unchanged.\n", "\(form) \(format)")
                #expect(try demo.dump() == before, "\(form) \(format)")
            }
        }
    }

    @Test func importIntoAFreshCopyGivesTheSameRows() throws {
        let demo = try DemoDatabase(sql: Self.playlists)
        let export = try demo.run(["export", "playlist", "--children"])
        let fresh = try DemoDatabase(sql: """
            CREATE TABLE playlist (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE track (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
            CREATE TABLE playlist_track (
                playlist_id INTEGER NOT NULL REFERENCES playlist(id),
                track_id INTEGER NOT NULL REFERENCES track(id),
                position INTEGER NOT NULL,
                PRIMARY KEY (playlist_id, track_id)
            );
            INSERT INTO track VALUES (1, 'Intro'), (2, 'Song'), (3, 'Outro');
            """)
        let run = try fresh.run(["import", "playlist", "--children"], stdin: export.output)
        #expect(run.code == 0, "\(run)")
        #expect(run.errors == "Imported 2 row(s): 2 new, 0 updated, 0 unchanged.\n")
        let rows = "SELECT playlist_id, track_id, position FROM playlist_track ORDER BY 1, 3"
        #expect(try fresh.query(rows) == demo.query(rows))
    }

    @Test func importUpdatesInsertsAndDeletesRows() throws {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        let run = try demo.run(["import", "invoice", "--children"], stdin: """
            {"id": 1, "customer": "Ann", "total": 5.5, "invoice_line": [{"id": 11, "item": "Cake", "amount": 4}]}
            {"customer": "Cy", "invoice_line": [{"item": "Jam", "amount": 1}]}
            """)
        #expect(run.code == 0, "\(run)")
        #expect(run.errors == "Imported 2 row(s): 1 new, 1 updated, 0 unchanged.\n")
        #expect(try demo.query("SELECT id, invoice_id, item, amount FROM invoice_line ORDER BY id")
                == "11|1|Cake|4\n12|3|Jam|1\n")
    }

    @Test func aBadChildRowImportsNothing() throws {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        let before = try demo.dump()
        let run = try demo.run(["import", "invoice", "--children"], stdin: """
            {"id": 2, "customer": "Bo B", "invoice_line": [{"item": "Jam", "amount": 1}]}
            {"id": 1, "invoice_line": [{"id": 10, "amount": "lots"}]}
            """)
        #expect(run.code == 65, "\(run)")
        #expect(run.errors.contains("line 2: "), "\(run)")
        #expect(try demo.dump() == before)
    }

    @Test func importWithoutChildrenRefusesRows() throws {
        let demo = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        let run = try demo.run(["import", "invoice"], stdin: #"{"id": 1, "invoice_line": []}"# + "\n")
        #expect(run.code == 65, "\(run)")
        let csv = try demo.run(["import", "invoice", "--children", "--format", "csv"], stdin: "id\n1\n")
        #expect(csv.code == 64)
    }
}

/// An export with `--children` of a table whose group is the table itself
/// (an employee's reports) lists each record as a line and as a row of its
/// boss's: imported into an empty copy, every record is new, where a record
/// its boss's line made was counted updated or unchanged on its own line.
@Suite struct OwnTableChildCountTests {
    @Test func everyRecordOfAnEmptyCopyIsNew() throws {
        let schema = "CREATE TABLE emp (id INTEGER PRIMARY KEY, name TEXT, boss INTEGER REFERENCES emp(id));"
        let source = try DemoDatabase(sql: schema + "INSERT INTO emp VALUES (1, 'CEO', NULL), (2, 'VP', 1), (3, 'Dev', 2), (4, 'Ops', 2);")
        let exported = try source.run(["export", "emp", "--children"])
        #expect(exported.code == 0, "\(exported)")
        let copy = try DemoDatabase(sql: schema)
        let imported = try copy.run(["import", "emp", "--children"], stdin: exported.output)
        #expect(imported.errors == "Imported 4 row(s): 4 new, 0 updated, 0 unchanged.\n", "\(imported)")
        #expect(try copy.dump() == source.dump())
        let again = try copy.run(["import", "emp", "--children"], stdin: exported.output)
        #expect(again.errors == "Imported 4 row(s): 0 new, 0 updated, 4 unchanged.\n", "\(again)")
    }
}
