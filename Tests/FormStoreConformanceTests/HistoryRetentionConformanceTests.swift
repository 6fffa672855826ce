import FormBasics
import FormCore
import Foundation
import Testing

/// What each save's pruning keeps, the same on SQLite and PostgreSQL: the
/// record's latest saves by count, everyone's recent saves by age, and always
/// the save just made, so a change id is never given twice.
@Suite struct HistoryRetentionConformanceTests {
    /// A backend that keeps history as `retention` says, with saves of another
    /// record (by someone else, one field each) made at `times`, and a session on ann.
    static func annSession(_ kind: BackendKind, retention: HistoryRetention,
                           otherSavesAt times: [String] = []) throws -> (TestBackend, FormSession) {
        let backend = try TestBackend(kind, schema: People.schema)
        let store = try backend.historyStore()
        for time in times {
            try backend.execute("""
                INSERT INTO formstore_changes (form, record_key, changed_at, actor, via)
                    VALUES ('person', '{"id":9}', '\(time)', 'bo', 'library')
                """)
        }
        try backend.execute("""
            INSERT INTO formstore_change_fields (change_id, field, old_value, new_value, secure)
                SELECT id, 'name', 'Bo', 'Bo Chen', 0 FROM formstore_changes
            """)
        backend.setHistoryRetention(retention)
        return (backend, try FormSession.open(People.form(), key: People.ann, backend: store))
    }

    /// Sets ann's name to `name`, saving; the save's change id.
    static func save(_ session: FormSession, name: String) throws -> Int64 {
        try session.set("name", input: name)
        #expect(try session.save().isSuccess)
        return try #require(try session.history().last?.id)
    }

    @Test(arguments: BackendKind.allCases)
    func anAgeDropsEveryonesSavesBeforeItAndNoOthers(_ kind: BackendKind) throws {
        let recent = ISO8601.dateTime(Date().addingTimeInterval(-86_400))
        let (backend, session) = try Self.annSession(kind, retention: .days(30),
                                                     otherSavesAt: ["2001-01-01T00:00:00.000Z", "2001-01-02T00:00:00.000Z", recent])
        #expect(try Self.save(session, name: "Ann Park") == 4)
        #expect(try backend.row("SELECT min(id), count(*), min(changed_at) FROM formstore_changes") == ["3", "2", recent])
        #expect(try backend.count("SELECT count(*) FROM formstore_change_fields WHERE change_id < 3") == 0)
        #expect(try backend.count("SELECT count(*) FROM formstore_change_fields") == 2)
    }

    @Test(arguments: BackendKind.allCases)
    func aCountDropsOnlyTheRecordsOwnOlderSaves(_ kind: BackendKind) throws {
        let (backend, session) = try Self.annSession(kind, retention: .latest(2),
                                                     otherSavesAt: ["2001-01-01T00:00:00.000Z", "2001-01-02T00:00:00.000Z"])
        #expect(try (2...4).map { try Self.save(session, name: "Ann \($0)") } == [3, 4, 5])
        #expect(try session.history().map(\.id) == [4, 5])
        #expect(try backend.count("SELECT count(*) FROM formstore_changes WHERE actor = 'bo'") == 2)
        #expect(try backend.count("SELECT count(*) FROM formstore_change_fields") == 4)
    }

    @Test(arguments: BackendKind.allCases)
    func keepingNothingStillKeepsTheSaveJustMadeSoIdsKeepGrowing(_ kind: BackendKind) throws {
        let (backend, session) = try Self.annSession(kind, retention: HistoryRetention(maximumCount: 0))
        var ids = try (1...3).map { try Self.save(session, name: "Ann \($0)") }
        #expect(try session.history().map(\.id) == [ids[2]])
        // Everything older than now goes; the newest save stays, so the next id is still a new one.
        backend.setHistoryRetention(HistoryRetention(maximumAge: .zero))
        ids += try (4...5).map { try Self.save(session, name: "Ann \($0)") }
        backend.setHistoryRetention(HistoryRetention(maximumAge: .seconds(-60)))
        ids.append(try Self.save(session, name: "Ann 6"))
        #expect(ids == [1, 2, 3, 4, 5, 6])
        #expect(try backend.row("SELECT max(id) FROM formstore_changes") == ["6"])
        #expect(try backend.count("""
            SELECT count(*) FROM formstore_changes WHERE changed_at < (SELECT changed_at FROM formstore_changes WHERE id = 6)
            """) == 0)
    }
}
