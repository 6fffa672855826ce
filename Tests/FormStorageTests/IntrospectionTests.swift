import FormStorage
import Testing

@Suite struct IntrospectionTests {
    let conn: Connection

    init() throws {
        conn = try Connection(path: ":memory:")
    }

    @Test func quoteIdentifierDoublesQuotes() {
        #expect(quoteIdentifier("order") == #""order""#)
        #expect(quoteIdentifier(#"say "hi""#) == #""say ""hi""""#)
        #expect(quoteIdentifier("first name") == #""first name""#)
    }

    @Test func compositeKeyWithoutRowIDTableWithAwkwardNames() throws {
        let parent = #"the "parent" table"#
        let table = #"order "lines" table"#
        try conn.executeScript(#"""
            CREATE TABLE \#(quoteIdentifier(parent))(id INTEGER PRIMARY KEY, label TEXT);
            CREATE TABLE \#(quoteIdentifier(table)) (
                "order" INTEGER NOT NULL REFERENCES \#(quoteIdentifier(parent))(id) ON DELETE CASCADE,
                [line no] INTEGER NOT NULL,
                "say ""hi""" TEXT DEFAULT 'hello' CHECK ("say ""hi""" IN ('hello', 'it''s', "bye")),
                status varchar(10) NOT NULL DEFAULT 'open', -- a comment with CHECK (x IN ('no'))
                level INT CHECK ((level in (1, 2, -3))),
                amount DECIMAL(10, 2),
                note,
                CONSTRAINT "status values" CHECK (status IN ('open', 'closed', 'on hold')),
                PRIMARY KEY ("order", [line no])
            ) WITHOUT ROWID;
            """#)
        let info = try conn.tableInfo(table)
        #expect(info.name == table)
        #expect(info.isWithoutRowID)
        #expect(info.primaryKey == .columns(["order", "line no"]))
        #expect(info.columns.map(\.name) == ["order", "line no", #"say "hi""#, "status", "level", "amount", "note"])
        #expect(info.columns.map(\.affinity) == [.integer, .integer, .text, .text, .integer, .numeric, .blob])
        #expect(info.columns.map(\.primaryKeyPosition) == [1, 2, 0, 0, 0, 0, 0])
        #expect(info.column("STATUS")?.declaredType == "varchar(10)")
        #expect(info.column("status")?.isNotNull == true)
        #expect(info.column("status")?.defaultValueSQL == "'open'")
        #expect(info.column("note")?.defaultValueSQL == nil)
        #expect(info.column("status")?.allowedValues == [.text("open"), .text("closed"), .text("on hold")])
        #expect(info.column(#"say "hi""#)?.allowedValues == [.text("hello"), .text("it's"), .text("bye")])
        #expect(info.column("level")?.allowedValues == [.integer(1), .integer(2), .integer(-3)])
        #expect(info.column("amount")?.allowedValues == nil)
        // Each CHECK as written, none read out of a comment or a string.
        #expect(info.checkConstraints == [#""say ""hi""" IN ('hello', 'it''s', "bye")"#, "(level in (1, 2, -3))",
                                          "status IN ('open', 'closed', 'on hold')"])
        #expect(info.foreignKeys == [ForeignKey(destinationTable: parent, columns: ["order"],
                                                destinationColumns: ["id"], onDelete: "CASCADE")])

        // The names work in real statements too.
        try conn.execute("INSERT INTO \(quoteIdentifier(parent))(id) VALUES (1)")
        try conn.execute("""
            INSERT INTO \(quoteIdentifier(table))("order", "line no", status) VALUES (?, ?, ?)
            """, [1, 1, "open"])
        let error = databaseError {
            try conn.execute("INSERT INTO \(quoteIdentifier(table))(\"order\", \"line no\", status) VALUES (1, 2, 'nope')")
        }
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_CHECK)
    }

    @Test func primaryKeyKinds() throws {
        try conn.executeScript("""
            CREATE TABLE alias(id INTEGER PRIMARY KEY, a);
            CREATE TABLE textkey(code TEXT PRIMARY KEY, a);
            CREATE TABLE descending(id INTEGER PRIMARY KEY DESC, a);
            CREATE TABLE hidden(a, b);
            CREATE TABLE composite(a, b, PRIMARY KEY (b, a));
            """)
        #expect(try conn.tableInfo("alias").primaryKey == .rowIDAlias("id"))
        #expect(try conn.tableInfo("alias").primaryKey.isRowID)
        #expect(try conn.tableInfo("textkey").primaryKey == .columns(["code"]))
        #expect(try conn.tableInfo("descending").primaryKey == .columns(["id"]))
        #expect(try conn.tableInfo("hidden").primaryKey == .hiddenRowID)
        #expect(try conn.tableInfo("hidden").primaryKey.columns == [])
        #expect(try conn.tableInfo("composite").primaryKey == .columns(["b", "a"]))
        #expect(try !conn.tableInfo("composite").isWithoutRowID)
    }

    @Test func foreignKeyToAnImplicitPrimaryKeyAndCompositeForeignKeys() throws {
        try conn.executeScript("""
            CREATE TABLE parent(a, b, PRIMARY KEY (a, b));
            CREATE TABLE child(x, y, FOREIGN KEY (x, y) REFERENCES parent ON UPDATE SET NULL);
            """)
        let keys = try conn.tableInfo("child").foreignKeys
        #expect(keys == [ForeignKey(destinationTable: "parent", columns: ["x", "y"], destinationColumns: ["a", "b"],
                                    onUpdate: "SET NULL")])
    }

    @Test func affinityRules() {
        #expect(ColumnAffinity(declaredType: "BIGINT") == .integer)
        #expect(ColumnAffinity(declaredType: "CHARINT") == .integer)
        #expect(ColumnAffinity(declaredType: "NVARCHAR(40)") == .text)
        #expect(ColumnAffinity(declaredType: "CLOB") == .text)
        #expect(ColumnAffinity(declaredType: "") == .blob)
        #expect(ColumnAffinity(declaredType: "blob") == .blob)
        #expect(ColumnAffinity(declaredType: "DOUBLE PRECISION") == .real)
        #expect(ColumnAffinity(declaredType: "FLOATING POINT") == .integer)
        #expect(ColumnAffinity(declaredType: "DATETIME") == .numeric)
        #expect(ColumnAffinity(declaredType: "BOOLEAN") == .numeric)
    }

    /// A virtual table is listed; its shadow tables (its own storage) are internal.
    @Test func aFullTextIndexIsListedWithoutItsShadowTables() throws {
        try conn.executeScript("""
            CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT);
            CREATE VIRTUAL TABLE notes_fts USING fts5(body);
            """)
        #expect(try conn.tableNames() == ["notes", "notes_fts"])
        #expect(try conn.tableNames(includingInternal: true).contains("notes_fts_data"))
    }

    @Test func listsUserTablesAndViewsOnly() throws {
        try conn.executeScript("""
            CREATE TABLE "b table"(id INTEGER PRIMARY KEY AUTOINCREMENT);
            CREATE TABLE a(x);
            CREATE TABLE formstore_settings(key TEXT PRIMARY KEY);
            CREATE TABLE formstoreish(x);
            CREATE VIEW v AS SELECT 1;
            """)
        #expect(try conn.tableNames() == ["a", "b table", "formstoreish", "v"])
        #expect(try conn.tableNames(includingInternal: true).contains("sqlite_sequence"))
        #expect(try conn.tableExists("A"))
        #expect(try conn.tableExists("v"))
        #expect(try conn.tableInfo("v").kind == .view)
        #expect(try conn.tableInfo("a").kind == .table)
    }

    @Test func missingTableIsAnError() throws {
        let error = databaseError { _ = try conn.tableInfo("nope") }
        #expect(error?.resultCode == .SQLITE_ERROR)
    }

    @Test func generatedColumnsAreMarked() throws {
        try conn.execute("CREATE TABLE g(a INTEGER, b INTEGER GENERATED ALWAYS AS (a * 2) VIRTUAL)")
        let info = try conn.tableInfo("g")
        #expect(info.columns.map(\.isGenerated) == [false, true])
    }
}
