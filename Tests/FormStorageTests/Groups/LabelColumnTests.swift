import FormCore
import Foundation
import Testing
@testable import FormStorage

/// A form naming a picker's label column (`labelColumn`), on the schema of
/// `ChildTableTests`; the inferred label passes over secret columns.
@Suite struct LabelColumnTests {
    let tables: ChildTableTests

    init() throws { tables = try ChildTableTests() }

    /// A playlist whose tracks are shown by their id column's text, read as
    /// the spec would name it for a row field of a group.
    static func playlistForm(labelColumn: String) -> Form {
        Form("playlist") {
            Section { Field("Name", key: "name") }
            Section(group: "tracks") { Field("Track", key: "track_id", kind: .integer).required().labelColumn(labelColumn) }
                .childTable("playlist_track", keyFields: ["playlist_id", "track_id"])
                .orderColumn("position")
        }
    }

    @Test func aRowFieldsNamedLabelColumnIsThePickersLabel() throws {
        try ChildTableTests.shell(tables.path, "ALTER TABLE track ADD COLUMN artist TEXT; UPDATE track SET artist = 'Zed' WHERE id = 1;")
        let form = Self.playlistForm(labelColumn: "artist")
        let picker = try tables.store.picker(form, field: "tracks.track_id")
        #expect(picker == ReferencePicker(table: "track", column: "id", labelColumn: "artist"))
        #expect(try tables.store.referenceLabel(form, field: "tracks.track_id", value: 1) == "Zed")
    }

    @Test func aMisspeltLabelColumnFailsWhenTheFormIsFirstUsed() throws {
        let form = Self.playlistForm(labelColumn: "titel")
        let message = "form playlist: field 'tracks.track_id' shows its rows by labelColumn 'titel', which table 'track' lacks"
        #expect(throws: FormStoreError(reason: .unknownColumn, message: message)) {
            _ = try FormSession.open(form, key: RecordKey("id", 1), backend: tables.store)
        }
        #expect(throws: FormStoreError(reason: .unknownColumn, message: message)) {
            _ = try tables.store.picker(form, field: "tracks.track_id")
        }
    }

    @Test func theFormsPickersAreFoundInOneRead() throws {
        try ChildTableTests.shell(tables.path, """
            CREATE TABLE login (id INTEGER PRIMARY KEY, password_hash TEXT NOT NULL, handle TEXT NOT NULL);
            CREATE TABLE post (id INTEGER PRIMARY KEY, body TEXT, author_id INTEGER REFERENCES login(id),
                               track_id INTEGER REFERENCES track(id));
            """)
        let form = FormInference.form(for: try tables.store.database.read { try $0.tableInfo("post") })
        let pickers = try tables.store.pickers(form)
        // The author's label is the handle: a password hash is never shown beside a key.
        #expect(pickers == ["author_id": ReferencePicker(table: "login", column: "id", labelColumn: "handle"),
                            "track_id": ReferencePicker(table: "track", column: "id", labelColumn: "title")])
    }
}
