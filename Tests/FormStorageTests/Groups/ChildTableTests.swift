import FormCore
import FormStoreTestSupport
import Foundation
import Testing
@testable import FormStorage

/// Repeating groups over child tables, on schemas an application built with the
/// `sqlite3` shell: an invoice with lines, a playlist with an ordered join table
/// keyed by (playlist, track), an employee whose reports refer to them.
@Suite struct ChildTableTests {
    let directory: TemporaryDirectory
    let path: String
    let store: FormStore

    static let schema = """
        PRAGMA foreign_keys = ON;
        CREATE TABLE invoice (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, total NUMERIC NOT NULL DEFAULT 0);
        CREATE TABLE invoice_line (
            id INTEGER PRIMARY KEY,
            invoice_id INTEGER NOT NULL REFERENCES invoice(id) ON DELETE CASCADE,
            item TEXT NOT NULL,
            amount NUMERIC NOT NULL CHECK (amount >= 0),
            position INTEGER NOT NULL
        );
        INSERT INTO invoice VALUES (1, 'Ann', 5.5);
        INSERT INTO invoice_line VALUES (10, 1, 'Tea', 2.5, 1), (11, 1, 'Cake', 3, 2);
        CREATE TABLE track (id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE);
        CREATE TABLE playlist (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE playlist_track (
            playlist_id INTEGER NOT NULL REFERENCES playlist(id),
            track_id INTEGER NOT NULL REFERENCES track(id),
            position INTEGER NOT NULL,
            PRIMARY KEY (playlist_id, track_id)
        ) WITHOUT ROWID;
        INSERT INTO track VALUES (1, 'Blue'), (2, 'Green'), (3, 'Red');
        INSERT INTO playlist VALUES (1, 'Mix');
        INSERT INTO playlist_track VALUES (1, 1, 1), (1, 2, 2);
        CREATE TABLE employee (id INTEGER PRIMARY KEY, name TEXT NOT NULL, manager_id INTEGER REFERENCES employee(id));
        INSERT INTO employee VALUES (1, 'Boss', NULL), (2, 'Ann', 1), (3, 'Bo', 1), (4, 'Cy', NULL);
        """

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("app.sqlite")
        try Self.shell(path, Self.schema)
        store = try FormStore(path: path, sidecarDirectory: directory.url)
    }

    static func shell(_ path: String, _ script: String) throws {
        let process = try SQLiteShell().start(database: path, script: script)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    static let invoiceForm = Form("invoice") {
        Section {
            Field("Customer", key: "customer").required()
            Field("Total", key: "total", kind: .decimal)
        }
        Section(group: "lines", title: "Lines") {
            Field("Item", key: "item").required()
            Field("Amount", key: "amount", kind: .decimal)
        }
        .childTable("invoice_line", foreignKey: "invoice_id")
        .orderColumn("position")
        .sum("amount", into: "total")
    }

    static let playlistForm = Form("playlist") {
        Section { Field("Name", key: "name") }
        Section(group: "tracks") { Field("Track", key: "track_id", kind: .integer).required() }
            .childTable("playlist_track", keyFields: ["playlist_id", "track_id"])
            .orderColumn("position")
    }

    static let employeeForm = Form("employee") {
        Section { Field("Name", key: "name") }
        Section(group: "reports") { Field("Name", key: "name") }
            .childTable("employee", foreignKey: "manager_id")
    }

    /// The first column of each row of `sql`, as text (SQLite's `||` makes it).
    func texts(_ sql: String) throws -> [String] {
        try store.database.read { conn in
            try conn.fetchAll(sql).map { row in
                if case .text(let text) = row[0] { return text }
                return "\(row[0])"
            }
        }
    }

    func lines() throws -> [String] {
        try texts("SELECT id || '|' || item || '|' || amount || '|' || position FROM invoice_line ORDER BY position")
    }

    @Test func aRecordOpensWithItsRowsInOrder() throws {
        let session = try FormSession.open(Self.invoiceForm, key: RecordKey("id", 1), backend: store)
        #expect(session.rows("lines").map { $0["item"] } == ["Tea", "Cake"])
        #expect(session.rows("lines").map { $0["invoice_id"] } == [1, 1])
    }

    @Test func oneSaveInsertsUpdatesDeletesAndReorders() throws {
        let session = try FormSession.open(Self.invoiceForm, key: RecordKey("id", 1), backend: store)
        let rows = session.rows("lines")
        try session.setRow("lines", rows[0].id, "amount", input: "3")
        try session.removeRow("lines", rows[1].id)
        _ = try session.addRow("lines", values: ["item": "Jam", "amount": 1.5], at: 0)
        try session.set("total", input: "4.5")
        #expect(try session.save() == .saved(changed: ["total", "lines"], key: RecordKey("id", 1)))
        let written = try lines()
        // SQLite hands the deleted row's id to the new one (no AUTOINCREMENT).
        #expect(written == ["11|Jam|1.5|1", "10|Tea|3|2"])
        #expect(!session.isDirty)
        let reopened = try FormSession.open(Self.invoiceForm, key: RecordKey("id", 1), backend: store)
        #expect(reopened.rows("lines").map { $0["item"] } == ["Jam", "Tea"])
    }

    /// Positions counted from 0 are the row's own: a change of one row's
    /// amount writes that amount, not the positions 1, 2.
    @Test func positionsFromZeroAreLeftAsTheyAre() throws {
        try Self.shell(path, "UPDATE invoice_line SET position = position - 1;")
        let session = try FormSession.open(Self.invoiceForm, key: RecordKey("id", 1), backend: store)
        try session.setRow("lines", session.rows("lines")[1].id, "amount", input: "4")
        try session.set("total", input: "6.5")
        _ = try session.save()
        #expect(try lines() == ["10|Tea|2.5|0", "11|Cake|4|1"])
        // A row moved before them follows the first: 0, then 1 and 2.
        let again = try FormSession.open(Self.invoiceForm, key: RecordKey("id", 1), backend: store)
        _ = try again.addRow("lines", values: ["item": "Jam", "amount": 1.5], at: 1)
        try again.set("total", input: "8")
        #expect(try again.save().isSuccess)
        #expect(try lines() == ["10|Tea|2.5|0", "12|Jam|1.5|1", "11|Cake|4|2"])
    }

    /// An order column the table lacks is refused by name: SQLite would
    /// read `ORDER BY "nope"` as a string, and rows would come in no order.
    @Test func anOrderColumnTheTableLacksIsRefused() throws {
        let form = Form("invoice") {
            Section { Field("Customer", key: "customer") }
            Section(group: "lines") { Field("Item", key: "item") }
                .childTable("invoice_line", foreignKey: "invoice_id")
                .orderColumn("nope")
        }
        #expect {
            _ = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        } throws: { error in
            "\(error)" == "form invoice: group 'lines' names orderColumn 'nope', which table 'invoice_line' lacks"
        }
        let missing = Form("invoice") {
            Section { Field("Customer", key: "customer") }
            Section(group: "lines") { Field("Item", key: "item") }.childTable("no_such_table", foreignKey: "invoice_id")
        }
        #expect {
            _ = try FormSession.open(missing, key: RecordKey("id", 1), backend: store)
        } throws: { error in
            "\(error)" == "form invoice: group 'lines' names table 'no_such_table', which the database lacks"
        }
    }

    @Test func aFailureInTheLastRowWritesNothing() throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let session = try FormSession.open(Self.invoiceForm, key: RecordKey("id", 1), backend: store)
        let rows = session.rows("lines")
        try session.setRow("lines", rows[0].id, "item", input: "Green tea")
        try session.removeRow("lines", rows[1].id)
        // SQLite's CHECK refuses the last row only.
        _ = try session.addRow("lines", values: ["item": "Refund", "amount": -2.5])
        try session.set("total", input: "0")
        #expect(throws: DatabaseError.self) { try session.save() }
        #expect(try lines() == ["10|Tea|2.5|1", "11|Cake|3|2"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(session.isDirty)
    }

    @Test func aChildConflictIsReportedPerRowAndField() throws {
        let session = try FormSession.open(Self.invoiceForm, key: RecordKey("id", 1), backend: store)
        try session.setRow("lines", session.rows("lines")[1].id, "amount", input: "4")
        try session.set("total", input: "6.5")
        try Self.shell(path, "UPDATE invoice_line SET amount = 3.5 WHERE id = 11;")
        #expect(try session.save() == .conflict([FieldConflict(field: "lines[11].amount", base: 3.0, mine: 4.0, theirs: 3.5)]))
        #expect(try lines() == ["10|Tea|2.5|1", "11|Cake|3.5|2"])
    }

    @Test func anUnchangedRowIsNotWrittenAndKeepsItsForm() throws {
        // Padding an older version of the app wrote, which the form's field would trim: left as it is.
        try Self.shell(path, "UPDATE invoice_line SET item = ' Tea ' WHERE id = 10;")
        let session = try FormSession.open(Self.invoiceForm, key: RecordKey("id", 1), backend: store)
        try session.setRow("lines", session.rows("lines")[1].id, "item", input: "Scone")
        _ = try session.save()
        #expect(try texts("SELECT '[' || item || ']' FROM invoice_line ORDER BY id") == ["[ Tea ]", "[Scone]"])
    }

    @Test func aPlaylistsTracksAreReorderedThroughTheJoinTable() throws {
        let session = try FormSession.open(Self.playlistForm, key: RecordKey("id", 1), backend: store)
        let rows = session.rows("tracks")
        #expect(rows.map { $0["track_id"] } == [1, 2])
        try session.moveRow("tracks", rows[1].id, to: 0)
        let red = try session.addRow("tracks", values: ["track_id": 3])
        #expect(try session.save() == .saved(changed: ["tracks"], key: RecordKey("id", 1)))
        #expect(try texts("SELECT track_id || '@' || position FROM playlist_track WHERE playlist_id = 1 ORDER BY position")
                == ["2@2", "1@3", "3@4"])
        #expect(session.row("tracks", red)?.key == RecordKey(columns: ["playlist_id", "track_id"], values: [1, 3]))
    }

    @Test func anEmployeesReportsReferToThemThroughASelfReference() throws {
        let session = try FormSession.open(Self.employeeForm, key: RecordKey("id", 1), backend: store)
        #expect(session.rows("reports").map { $0["name"] } == ["Ann", "Bo"])
        try session.removeRow("reports", session.rows("reports")[1].id)
        _ = try session.addRow("reports", values: ["name": "Di"])
        _ = try session.save()
        #expect(try texts("SELECT name || ':' || ifnull(manager_id, '-') FROM employee ORDER BY id") == ["Boss:-", "Ann:1", "Cy:-", "Di:1"])
    }

    @Test func aNewParentIsInsertedWithItsRows() throws {
        let session = FormSession.new(Self.invoiceForm, backend: store)
        try session.set("customer", input: "Bo")
        try session.set("total", input: "2")
        _ = try session.addRow("lines", values: ["item": "Pie", "amount": 2.0])
        guard case .saved(_, let key) = try session.save() else {
            Issue.record("expected the save to pass")
            return
        }
        #expect(key == RecordKey("id", 2))
        #expect(try texts("SELECT invoice_id || '|' || item || '|' || position FROM invoice_line WHERE invoice_id = 2") == ["2|Pie|1"])
    }
}
