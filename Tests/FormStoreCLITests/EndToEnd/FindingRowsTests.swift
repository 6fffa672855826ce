import FormStoreTestSupport
import Foundation
import Testing

/// `list` and `export` find rows through each column's own form: `--where`
/// with operators, `--search`, `--sort`, `--offset` (docs/fidelity.md,
/// "Finding rows"), over the database of `FidelityTests`.
@Suite struct FindingRowsTests {
    /// The ids `list --format csv` printed, in order.
    static func ids(_ run: BinaryRun) -> [String] {
        run.output.split(separator: "\r\n").dropFirst().map { String($0.prefix { $0 != "," }) }
    }

    /// The ids of `events` matching the options.
    static func events(_ source: DemoDatabase, _ options: [String]) throws -> [String] {
        let run = try source.run(["list", "events", "--format", "csv"] + options)
        #expect(run.code == 0, "\(options): \(run)")
        return ids(run)
    }

    @Test func aDateTimeMatchesWithTheValueListShows() throws {
        let source = try FidelityTests.source()
        // Row 6 holds row 1's instant as a Julian day. (Seconds are left out: `list` shows minutes.)
        for (id, matches) in [("1", ["1", "6"]), ("4", ["4"])] {
            // The table's cell, as a person reads it and would type it back.
            let table = try source.run(["list", "events", "--where", "id=\(id)"])
            let row = try #require(table.output.split(separator: "\n").dropFirst().first)
            let cells = row.split(separator: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            let shown = try #require(cells.last)
            #expect(try Self.events(source, ["--where", "stamped=\(shown)"]) == matches, "\(shown)")
        }
    }

    @Test func aDateTypedInAnyFormMatchesEveryStoredForm() throws {
        let source = try FidelityTests.source()
        // 2021-01-01 00:00:00 UTC: text in row 1, a Julian day in row 6.
        for typed in ["2021-01-01 00:00:00", "2021-01-01T00:00:00Z", "2021-01-01T00:00:00.000Z", "2021-01-01T02:00:00+02:00"] {
            #expect(try Self.events(source, ["--where", "stamped=\(typed)"]) == ["1", "6"], "\(typed)")
        }
        // 1599999960 seconds: an epoch integer in row 4; typed as a date or as the epoch itself.
        #expect(try Self.events(source, ["--where", "stamped=2020-09-13 12:26:00"]) == ["4"])
        #expect(try Self.events(source, ["--where", "stamped=1599999960"]) == ["4"])
        #expect(try Self.events(source, ["--where", "stamped>1599999960", "--where", "stamped<2021-01-01"]) == ["5"])
        // ISO with a fraction and with an offset are the same instants in other spellings.
        #expect(try Self.events(source, ["--where", "stamped=2024-05-01 13:04:05.25"]) == ["2"])
        #expect(try Self.events(source, ["--where", "stamped=2024-05-01 11:04:05"]) == ["3"])
        #expect(try Self.events(source, ["--where", "stamped>=2024-01-01", "--where", "stamped<2024-05-01 12:00"]) == ["3"])
        #expect(try Self.events(source, ["--where", "day=2016-07-04"]) == ["1"])
    }

    /// A number against a column of no declared type matches the rows that
    /// hold it as a number or as its text (`10`, `'10'`, `10.0`), not text
    /// that is no number or a BLOB; `'007'` is text, as it is shown.
    @Test func aNumberMatchesAnUntypedColumnWhateverItsStorageClass() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE t (id INTEGER PRIMARY KEY, u);
            INSERT INTO t (u) VALUES ('10'), (10), ('9'), (9), ('abc'), (x'00'), ('007'), (10.0), (NULL);

            """)
        func ids(_ condition: String) throws -> [String] {
            let run = try db.run(["list", "t", "--format", "csv", "--where", condition])
            #expect(run.code == 0, "\(condition): \(run)")
            return Self.ids(run)
        }
        #expect(try ids("u=10") == ["1", "2", "8"])
        #expect(try ids("u>9") == ["1", "2", "8"])
        #expect(try ids("u<=9") == ["3", "4"])
        #expect(try ids("u!=10") == ["3", "4", "5", "6", "7", "9"])
        #expect(try ids("u=abc") == ["5"])
        #expect(try ids("u=007") == ["7"])
    }

    @Test func operatorsNullAndContains() throws {
        let source = try FidelityTests.source()
        #expect(try Self.events(source, ["--where", "stamped is null"]) == ["7"])
        #expect(try Self.events(source, ["--where", "stamped IS NOT NULL", "--where", "id>5"]) == ["6"])
        #expect(try Self.events(source, ["--where", "title~EPOCH"]) == ["4", "5"])
        #expect(try Self.events(source, ["--where", "title!=plain", "--where", "id<3"]) == ["2"])
        // An empty value is NULL or empty text.
        #expect(try Self.events(source, ["--where", "day="]) == ["3", "7"])
        // Wildcards are matched as themselves, and values are bound, never spliced.
        #expect(try Self.events(source, ["--where", "title~%"]) == [])
        #expect(try Self.events(source, ["--where", "title=x' OR 1=1 --"]) == [])
    }

    @Test func sortOffsetAndSearch() throws {
        let source = try FidelityTests.source()
        // Dates sort by instant whatever form each row holds; NULL first.
        #expect(try Self.events(source, ["--sort", "stamped"]) == ["7", "4", "5", "1", "6", "3", "2"])
        #expect(try Self.events(source, ["--sort", "-stamped", "--offset", "1", "--limit", "2"]) == ["3", "1"]
            || Self.events(source, ["--sort", "-stamped", "--offset", "1", "--limit", "2"]) == ["3", "6"])
        let search = try source.run(["list", "people", "--search", "acme", "--format", "csv"])
        #expect(Self.ids(search) == ["3"])
        let unicode = try source.run(["export", "things", "--search", "日本", "--format", "csv"])
        #expect(Self.ids(unicode) == ["3"])
    }

    @Test func anUnknownFieldIsAUsageErrorWithAGuess() throws {
        let source = try FidelityTests.source()
        let run = try source.run(["list", "events", "--where", "stamp=2021-01-01"])
        #expect(run.code == 64)
        #expect(run.errors.hasPrefix("Error: --where: form events has no field 'stamp'. Did you mean 'stamped'?\n"))
        let sort = try source.run(["export", "events", "--sort", "-titel"])
        #expect(sort.code == 64)
        #expect(sort.errors.hasPrefix("Error: --sort: form events has no field 'titel'. Did you mean 'title'?\n"))
        // Case is no typo: the guess is the field it names.
        let shouted = try source.run(["list", "events", "--where", "TITLE=x"])
        #expect(shouted.errors.hasPrefix("Error: --where: form events has no field 'TITLE'. Did you mean 'title'?\n"))
    }

    /// Columns named with the characters that end a field's name (`a=b`,
    /// `x>y`): typed with a backslash before them, they are set and compared
    /// like any other (a dot is no operator: `first.name` needs none).
    @Test func aColumnNamedWithAnOperatorIsTypedEscaped() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE odd (id INTEGER PRIMARY KEY, "a=b" TEXT, "x>y" INTEGER, "first.name" TEXT);
            INSERT INTO odd VALUES (1, 'eq', 5, 'Ada'), (2, 'ne', 1, 'Grace');
            """)
        #expect(try db.run(["set", "odd", "1", #"a\=b=c=d"#, "first.name=Ann"]).code == 0)
        #expect(try db.query(#"SELECT "a=b", "first.name" FROM odd WHERE id = 1"#) == "c=d|Ann\n")
        let listed = try db.run(["list", "odd", "--where", #"x\>y>3"#, "--format", "csv"])
        #expect(listed.code == 0, "\(listed)")
        #expect(Self.ids(listed) == ["1"])
        #expect(try db.run(["set", "odd", "1", "a=b=1"]).errors.contains("no field 'a'"))
    }

    /// A column whose name starts with `-` sorts ascending as `\-x`
    /// (`-x` is the descending order of `x`), and descending as `-\-x`.
    @Test func aColumnNamedWithALeadingDashSortsEscaped() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE odd (id INTEGER PRIMARY KEY, x INTEGER, "-x" TEXT);
            INSERT INTO odd VALUES (1, 1, 'b'), (2, 2, 'a'), (3, 3, 'c');
            """)
        func sorted(_ key: String) throws -> [String] {
            let run = try db.run(["list", "odd", "--sort", key, "--format", "csv"])
            #expect(run.code == 0, "\(key): \(run)")
            return Self.ids(run)
        }
        #expect(try sorted(#"\-x"#) == ["2", "1", "3"])
        #expect(try sorted(#"-\-x"#) == ["3", "1", "2"])
        #expect(try sorted("-x") == ["3", "2", "1"])
    }
}
