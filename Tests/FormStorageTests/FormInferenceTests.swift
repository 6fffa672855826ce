import FormCore
import FormStoreTestSupport
import Testing
@testable import FormStorage

@Suite struct FormInferenceTests {
    let directory: TemporaryDirectory
    let store: FormStore

    init() throws {
        directory = try TemporaryDirectory()
        store = try FormStore(path: directory.path("infer.sqlite"))
        try store.database.write { conn in
            try conn.executeScript(#"""
                CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE "order items" (
                    "order" INTEGER NOT NULL REFERENCES customers(id),
                    "line no" INTEGER NOT NULL,
                    product TEXT NOT NULL,
                    quantity INTEGER NOT NULL DEFAULT 1,
                    price NUMERIC,
                    shipped BOOLEAN NOT NULL DEFAULT 0,
                    due DATE,
                    photo BLOB,
                    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'shipped')),
                    PRIMARY KEY ("order", "line no")) WITHOUT ROWID;
                CREATE TABLE notes (body TEXT, secret_password TEXT);
                INSERT INTO customers VALUES (1, 'Ann');
                INSERT INTO notes VALUES ('hello', 'pw');
                """#)
        }
    }

    func field(_ form: Form, _ key: String) throws -> Field {
        try #require(form.field(key), "no field \(key)")
    }

    @Test func columnsBecomeTypedFields() throws {
        let table = try store.database.read { try $0.tableInfo("order items") }
        let form = FormInference.form(for: table)
        #expect(form.primaryKey == ["order", "line no"])
        #expect(try field(form, "order").kind == .integer)
        #expect(try field(form, "order").isReadOnly)
        #expect(try field(form, "order").hint == "references customers.id")
        #expect(try field(form, "product").isNotNull)
        #expect(try !field(form, "product").isRequired)
        #expect(try !field(form, "quantity").isNotNull)
        #expect(try field(form, "quantity").defaultValue == 1)
        #expect(try field(form, "price").kind == .decimal)
        #expect(try field(form, "shipped").kind == .bool)
        #expect(try field(form, "shipped").defaultValue == false)
        #expect(try field(form, "due").kind == .date)
        #expect(try !field(form, "photo").isReadOnly)
        #expect(try field(form, "photo").transforms == [.hex])
        let status = try field(form, "status")
        #expect(status.kind == .choice)
        #expect(status.choices.map(\.value) == ["open", "shipped"])
        #expect(status.defaultValue == "open")
    }

    @Test func aTableWithoutAKeyIsEditedByRowIDAndSecretsAreSecure() throws {
        let table = try store.database.read { try $0.tableInfo("notes") }
        let form = FormInference.form(for: table)
        #expect(form.primaryKey == ["rowid"])
        #expect(try field(form, "secret_password").isSecure)
        let session = try FormSession.open(form, key: RecordKey("rowid", 1), backend: store)
        #expect(session.value("body") == "hello")
        try session.set("body", value: "bye")
        #expect(try session.save().isSuccess)
        #expect(try store.database.read { try $0.fetchOne("SELECT body FROM notes")?[0] } == "bye")
    }

    @Test func aNewRecordWithACompositeKeyTakesItsKeyFromTheFields() throws {
        let form = FormInference.form(for: try store.database.read { try $0.tableInfo("order items") })
        let session = FormSession.new(form, backend: store)
        try session.set("order", value: 1)
        try session.set("line no", value: 7)
        try session.set("product", value: "Tea")
        guard case .saved(_, let key) = try session.save() else {
            Issue.record("not saved: \(session.allErrors)")
            return
        }
        #expect(key == RecordKey(columns: ["order", "line no"], values: [1, 7]))
        #expect(throws: SessionError.self) { try session.set("order", value: 2) }
    }

    /// A column named `rowid` leaves the rowid to `_rowid_` (then `oid`): the
    /// form keys the table by the first name no column has taken.
    @Test func aColumnNamedRowIDLeavesTheRowIDAnotherName() throws {
        try store.database.write { conn in
            try conn.executeScript("""
                CREATE TABLE legacy (rowid TEXT, name TEXT);
                INSERT INTO legacy VALUES ('r-1', 'first');
                CREATE TABLE shadowed (rowid TEXT, _rowid_ TEXT, oid TEXT);
                """)
        }
        let form = FormInference.form(for: try store.database.read { try $0.tableInfo("legacy") })
        #expect(form.primaryKey == ["_rowid_"])
        #expect(form.fields.map(\.key) == ["_rowid_", "rowid", "name"])
        let session = try FormSession.open(form, key: RecordKey("_rowid_", 1), backend: store)
        #expect(session.value("rowid") == "r-1")
        try session.set("name", value: "renamed")
        #expect(try session.save().isSuccess)
        #expect(try store.database.read { try $0.fetchOne("SELECT rowid, name FROM legacy") }.map { [$0[0], $0[1]] }
            == [.text("r-1"), .text("renamed")])
        let every = try store.database.read { try $0.tableInfo("shadowed") }
        #expect(every.rowIDName == nil)
        #expect(FormInference.form(for: every).primaryKey.isEmpty)
    }

    /// A column named '' is left out of the form, and never written: the
    /// other columns are edited as usual. Before, the form was refused ("a
    /// field needs a key") and the whole table could not be opened.
    @Test func aColumnNamedNothingIsLeftOut() throws {
        try store.database.write { conn in
            try conn.executeScript(#"""
                CREATE TABLE odd (id INTEGER PRIMARY KEY, "" TEXT, b TEXT);
                INSERT INTO odd VALUES (1, 'kept', 'before');
                """#)
        }
        let form = FormInference.form(for: try store.database.read { try $0.tableInfo("odd") })
        #expect(form.fields.map(\.key) == ["id", "b"])
        #expect(form.definitionProblems.isEmpty)
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        try session.set("b", value: "after")
        #expect(try session.save().isSuccess)
        #expect(try store.database.read { try $0.fetchOne(#"SELECT "", b FROM odd"#) }.map { [$0[0], $0[1]] }
            == [.text("kept"), .text("after")])
    }

    /// A declared type that names no kind (`JSON`, `UUID`, `STRING`) has
    /// NUMERIC affinity by SQLite's last rule, yet holds text: the inferred
    /// field is text, stored as typed (a number typed stays a number, as in
    /// an untyped column), where it was a decimal that refused JSON as "not a
    /// number". Types that name a number stay decimal.
    @Test func aTypeThatNamesNoKindTakesText() throws {
        try store.database.write { conn in
            try conn.executeScript("""
                CREATE TABLE documents (id INTEGER PRIMARY KEY, payload JSON, ref UUID, code STRING,
                                        amount MONEY, n NUMBER, total DECIMAL(10,2), price NUMERIC);
                INSERT INTO documents (id, payload, ref) VALUES (1, '{"a":[1,2]}', '550e8400-e29b-41d4-a716-446655440000');
                """)
        }
        let table = try store.database.read { try $0.tableInfo("documents") }
        #expect(table.columns.filter(\.isUntyped).map(\.name) == ["payload", "ref", "code"])
        let form = FormInference.form(for: table)
        for key in ["payload", "ref", "code"] { #expect(try field(form, key).kind == .text, "\(key)") }
        for key in ["amount", "n", "total", "price"] { #expect(try field(form, key).kind == .decimal, "\(key)") }

        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        #expect(session.value("payload") == .text(#"{"a":[1,2]}"#))
        try session.set("payload", input: #"{"b":true}"#)
        try session.set("code", input: "42")
        try session.set("ref", input: "not-a-number")
        #expect(try session.save().isSuccess)
        let stored = try store.database.read {
            try $0.fetchOne("SELECT payload, typeof(payload), code, typeof(code), ref FROM documents WHERE id = 1")
        }
        #expect(stored.map(\.values) == [.text(#"{"b":true}"#), .text("text"), .integer(42), .text("integer"),
                                                   .text("not-a-number")])
    }
}
