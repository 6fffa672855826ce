import FormBasics
import FormCore
import Foundation
import Testing

/// Every save through FormStore records, in its own transaction, each changed
/// field's old and new stored value, when, who and through what, the same on
/// SQLite and PostgreSQL.
@Suite struct HistoryConformanceTests {
    static func form() -> Form {
        var form = People.form()
        // The email stands in for a secret: the history says it changed, never what it was.
        form.sections[0].fields[1].isSecure = true
        return form
    }

    @Test(arguments: BackendKind.allCases)
    func aSaveRecordsEachChangedFieldWhoAndThroughWhat(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let store = try backend.historyStore()
        let session = try FormSession.open(Self.form(), key: People.ann, backend: store)
        session.attribution = ChangeAttribution(actor: "ann", via: .web)
        try session.set("name", input: "Ann Park")
        try session.set("email", input: "ann@park.example")
        try session.set("subscribed", value: true)
        try session.set("score", input: "13.75")
        #expect(try session.save().isSuccess)

        let history = try session.history()
        #expect(history.count == 1)
        let change = try #require(history.first)
        #expect(change.attribution == ChangeAttribution(actor: "ann", via: .web))
        #expect(change.key == People.ann)
        #expect(change.fields == [
            FieldChange(field: "name", old: "Ann Lee", new: "Ann Park"),
            FieldChange(field: "email", old: nil, new: nil, isSecure: true),
            FieldChange(field: "subscribed", old: false, new: true),
            FieldChange(field: "score", old: 12.5, new: 13.75),
        ])
        #expect(try store.history(Self.form(), key: People.ann, field: "score").map { $0.fields.map(\.field) } == [["score"]])
        // No value of the secure field reached the database's history.
        #expect(try backend.count("""
            SELECT count(*) FROM formstore_change_fields WHERE field = 'email' AND (old_value IS NOT NULL OR new_value IS NOT NULL)
            """) == 0)
        #expect(try backend.count("SELECT count(*) FROM formstore_change_fields WHERE field = 'email'") == 1)
    }

    @Test(arguments: BackendKind.allCases)
    func aNewRecordsHistoryStartsFromNothing(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let store = try backend.historyStore()
        let session = FormSession.new(Self.form(), backend: store)
        try session.set("name", input: "Bo Chen")
        try session.set("born", value: .date(ISO8601.parseDate("2001-02-03")!))
        #expect(try session.save().isSuccess)
        let change = try #require(try session.history().first)
        #expect(change.attribution == .library)
        #expect(change.fields.map(\.field) == ["name", "subscribed", "born"])
        #expect(change.fields.first == FieldChange(field: "name", old: .null, new: "Bo Chen"))
        #expect(change.fields.last?.new == .date(ISO8601.parseDate("2001-02-03")!))
    }

    @Test(arguments: BackendKind.allCases)
    func retentionKeepsTheLatestSaves(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let store = try backend.historyStore()
        backend.setHistoryRetention(.latest(2))
        let session = try FormSession.open(Self.form(), key: People.ann, backend: store)
        for number in 2...5 {
            try session.set("name", input: "Ann \(number)")
            #expect(try session.save().isSuccess)
        }
        #expect(try session.history().map { $0.fields[0].new } == ["Ann 4", "Ann 5"])
        #expect(try backend.count("SELECT count(*) FROM formstore_change_fields") == 2)
        #expect(try backend.count("SELECT count(*) FROM formstore_changes") == 2)
    }

    @Test(arguments: BackendKind.allCases)
    func aRefusedSaveRecordsNothing(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let store = try backend.historyStore()
        let session = try FormSession.open(Self.form(), key: People.ann, backend: store)
        try session.set("name", input: "Mine")
        try backend.execute("UPDATE people SET name = 'Theirs' WHERE id = 1")
        guard case .conflict = try session.save() else {
            Issue.record("a save over a change underneath was not refused")
            return
        }
        #expect(try session.history().isEmpty)
        #expect(try backend.count("SELECT count(*) FROM formstore_changes") == 0)
    }

    @Test(arguments: BackendKind.allCases)
    func anAwaitedSaveRecordsItsAttribution(_ kind: BackendKind) async throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let store = try backend.historyStore()
        let session = try await FormSession.open(Self.form(), key: People.ann, backend: store)
        session.attribution = ChangeAttribution(actor: "svc-7", via: .library)
        try session.set("born", value: .date(ISO8601.parseDate("1990-05-02")!))
        let outcome = try await session.save()
        #expect(outcome.isSuccess, "\(outcome)")
        let change = try #require(try session.history().first)
        #expect(change.attribution.actor == "svc-7")
        #expect(change.fields == [FieldChange(field: "born", old: .date(ISO8601.parseDate("1990-04-01")!),
                                              new: .date(ISO8601.parseDate("1990-05-02")!))])
    }

    @Test(arguments: BackendKind.allCases)
    func aSaveWhoseHistoryCannotBeWrittenIsNotKept(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let store = try backend.historyStore()
        // The history refuses this save (as a full disk or a broken connection would at that point).
        switch kind {
        case .sqlite:
            try backend.execute("""
                CREATE TRIGGER refuse_web BEFORE INSERT ON formstore_changes WHEN NEW.via = 'web'
                BEGIN SELECT RAISE(ABORT, 'no history through the web'); END;
                """)
        case .postgres:
            try backend.execute("ALTER TABLE formstore_changes ADD CONSTRAINT refuse_web CHECK (via <> 'web')")
        }
        let session = try FormSession.open(Self.form(), key: People.ann, backend: store)
        session.attribution = ChangeAttribution(actor: "ann", via: .web)
        try session.set("name", input: "Ann Park")
        #expect(throws: (any Error).self) { try session.save() }
        #expect(try backend.row("SELECT name FROM people WHERE id = 1") == ["Ann Lee"])
        #expect(try backend.count("SELECT count(*) FROM formstore_change_fields") == 0)
        // The same save through another channel keeps both.
        session.attribution = ChangeAttribution(actor: "ann", via: .library)
        #expect(try session.save().isSuccess)
        #expect(try backend.row("SELECT name FROM people WHERE id = 1") == ["Ann Park"])
        #expect(try session.history().count == 1)
    }
}
