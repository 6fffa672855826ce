import FormCore
import FormStoreTestSupport
import Testing
@testable import FormStorage

/// Undoing a save puts back the bytes the save replaced, not the old value
/// written anew in the row's current form (docs/fidelity.md).
@Suite struct UndoFidelityTests {
    let directory: TemporaryDirectory
    let store: FormStore

    init() throws {
        directory = try TemporaryDirectory()
        store = try FormStore(path: directory.path("undo.sqlite"))
        try store.database.write { conn in
            try conn.executeScript("""
                CREATE TABLE t (id INTEGER PRIMARY KEY, d DATE, n, b BOOLEAN, r REAL);
                INSERT INTO t VALUES (1, '2024-3-5', '007', 'Y', 2.0);
                """)
        }
    }

    func row() throws -> [DatabaseValue] {
        try store.database.read { try #require(try $0.fetchOne("SELECT d, n, b, r FROM t WHERE id = 1")).values }
    }

    func form() throws -> Form {
        FormInference.form(for: try store.database.read { try $0.tableInfo("t") })
    }

    @Test func undoingASaveOfAnUntypedNumberPutsBackTheInteger() throws {
        try store.database.write { try $0.execute("UPDATE t SET n = 42 WHERE id = 1") }
        let session = try FormSession.open(form(), key: RecordKey("id", 1), backend: store)
        try session.set("n", input: "007")
        #expect(try session.save().isSuccess)
        #expect(try row()[1] == .text("007"))
        _ = try session.undo()
        #expect(try row()[1] == .integer(42))
    }

    @Test func undoingASavePutsBackTheStoredFormsItReplaced() throws {
        let before = try row()
        let session = try FormSession.open(form(), key: RecordKey("id", 1), backend: store)
        try session.set("d", input: "2024-12-25")
        try session.set("n", input: "42")
        try session.set("b", value: false)
        try session.set("r", input: "3.5")
        #expect(try session.save().isSuccess)
        #expect(try row() != before)
        #expect(try session.undo() == .saved(changed: ["d", "n", "b", "r"], key: RecordKey("id", 1)))
        #expect(try row() == before)
        // Redone, the save's own bytes come back.
        _ = try session.redo()
        #expect(try row() == [.text("2024-12-25"), .text("42"), .text("N"), .real(3.5)])
        _ = try session.undo()
        #expect(try row() == before)
    }
}

/// Undoing a save that wrote a group's rows puts each row back in the bytes
/// it was stored in: a removed row is not re-created in its siblings' forms.
@Suite struct RowUndoFidelityTests {
    @Test func undoingARowsSavePutsBackTheirStoredForms() throws {
        let directory = try TemporaryDirectory()
        let store = try FormStore(path: directory.path("rows.sqlite"))
        try store.database.write { conn in
            try conn.executeScript("""
                CREATE TABLE p (id INTEGER PRIMARY KEY, n TEXT);
                CREATE TABLE k (id INTEGER PRIMARY KEY, p_id INTEGER REFERENCES p(id), d DATE, flag BOOLEAN, u);
                INSERT INTO p VALUES (1, 'a');
                INSERT INTO k VALUES (1, 1, '2024-3-5', 'Y', '007'), (2, 1, 2460000.5, -1, 'x');
                """)
        }
        let rows = { try store.database.read { try $0.fetchAll("SELECT id, p_id, d, flag, u FROM k ORDER BY id").map(\.values) } }
        let before = try rows()
        let form = try #require(try store.inferredFormWithChildren(table: "p"))
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        let kept = try #require(session.rows("k").first)
        try session.setRow("k", kept.id, "flag", value: false)
        try session.removeRow("k", session.rows("k")[1].id)
        #expect(try session.save().isSuccess)
        #expect(try rows() != before)
        #expect(try session.undo()?.isSuccess == true)
        #expect(try rows() == before)
    }
}
