import FormCore
import FormStoreTestSupport
import Foundation
import Testing
@testable import FormStorage

/// A record that is a JSON text column: fields with dotted keys reach into it.
@Suite struct JSONColumnTests {
    let directory: TemporaryDirectory
    let store: FormStore
    let form: Form

    init() throws {
        directory = try TemporaryDirectory()
        store = try FormStore(path: directory.path("json.sqlite"))
        try store.database.write { conn in
            try conn.executeScript("""
                CREATE TABLE prefs (id INTEGER PRIMARY KEY, data TEXT);
                INSERT INTO prefs (data) VALUES ('{"ui": {"theme": "light"}, "fontSize": 12, "kept": [1, 2]}');
                INSERT INTO prefs (data) VALUES (NULL);
                """)
        }
        form = Form("prefs") {
            Section {
                Field("Theme", key: "data.ui.theme", kind: .choice).choices(["light", "dark"])
                Field("Font size", key: "data.fontSize", kind: .integer).range(8...32)
                Field("Since", key: "data.since", kind: .date)
            }
        }.table("prefs")
    }

    func document(_ id: Int) throws -> [String: Any] {
        let text = try #require(try store.database.read { try $0.fetchOne("SELECT data FROM prefs WHERE id = ?", [id]) }?[0])
        guard case .text(let json) = text else { throw CancellationError() }
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test func fieldsReadAndWriteInsideTheDocumentKeepingTheRest() throws {
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        #expect(session.value("data.ui.theme") == "light")
        #expect(session.value("data.fontSize") == 12)
        try session.set("data.ui.theme", input: "dark")
        try session.set("data.since", input: "01/02/2024")
        #expect(try session.save() == .saved(changed: ["data.ui.theme", "data.since"], key: RecordKey("id", 1)))
        let stored = try document(1)
        #expect((stored["ui"] as? [String: Any])?["theme"] as? String == "dark")
        #expect(stored["fontSize"] as? Int == 12)
        #expect(stored["kept"] as? [Int] == [1, 2], "keys no field names are kept")
        #expect((stored["since"] as? String)?.hasPrefix("2024-01-02") == true)
        let reopened = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        #expect(reopened.text("data.since") == "01/02/2024")
    }

    @Test func aNullColumnStartsAnEmptyDocument() throws {
        let session = try FormSession.open(form, key: RecordKey("id", 2), backend: store)
        #expect(session.value("data.ui.theme") == .null)
        try session.set("data.fontSize", input: "14")
        #expect(try session.save().isSuccess)
        #expect(try document(2)["fontSize"] as? Int == 14)
    }

    @Test func anotherWriterChangingTheSamePathIsAConflict() throws {
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        try session.set("data.ui.theme", input: "dark")
        try store.database.write {
            try $0.execute(#"UPDATE prefs SET data = json_set(data, '$.ui.theme', 'blue') WHERE id = 1"#)
        }
        #expect(try session.save() == .conflict([FieldConflict(field: "data.ui.theme", base: "light", mine: "dark", theirs: "blue")]))
    }

    @Test func listsFilterByAValueInsideTheDocument() throws {
        var found: [RecordKey] = []
        try store.forEachRecord(form, where: [RecordFilter(field: "data.ui.theme", value: "light")]) { found.append($0.key) }
        #expect(found == [RecordKey("id", 1)])
    }
}
