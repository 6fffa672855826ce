import FormBasics
import FormCore
import Foundation
import Testing

/// Editing sessions behave the same over SQLite and PostgreSQL: every test
/// runs once per backend.
@Suite struct SessionConformanceTests {
    @Test(arguments: BackendKind.allCases)
    func loadReadsEachColumnAsItsKind(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let session = try FormSession.open(People.form(), key: People.ann, backend: backend.store)
        #expect(session.value("name") == "Ann Lee")
        #expect(session.value("subscribed") == false)
        #expect(session.value("born") == .date(ISO8601.parseDate("1990-04-01")!))
        #expect(session.value("score") == 12.5)
        #expect(!session.isDirty)
    }

    @Test(arguments: BackendKind.allCases)
    func saveWritesOnlyChangedColumnsAndKeepsAnotherWritersColumn(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let session = try FormSession.open(People.form(), key: People.ann, backend: backend.store)
        try session.set("email", value: "ann@lee.example")
        #expect(session.dirtyFields == ["email"])
        try backend.execute("UPDATE people SET name = 'Annie Lee' WHERE id = 1")
        #expect(try session.save() == .saved(changed: ["email"], key: People.ann))
        #expect(try backend.row("SELECT name, email FROM people WHERE id = 1") == ["Annie Lee", "ann@lee.example"])
        #expect(!session.isDirty)
    }

    @Test(arguments: BackendKind.allCases)
    func typingBackTheOldValueMakesTheFieldClean(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let session = try FormSession.open(People.form(), key: People.ann, backend: backend.store)
        try session.set("name", input: "Bob")
        #expect(session.isDirty)
        try session.set("name", input: "Ann Lee")
        #expect(!session.isDirty)
        #expect(try session.save() == .unchanged)
    }

    @Test(arguments: BackendKind.allCases)
    func conflictWritesNothingAndReportsBaseMineTheirs(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let session = try FormSession.open(People.form(), key: People.ann, backend: backend.store)
        try session.set("email", value: "mine@example.com")
        try backend.execute("UPDATE people SET email = 'theirs@example.com' WHERE id = 1")
        #expect(try session.save() == .conflict([FieldConflict(field: "email", base: "ann@example.com",
                                                               mine: "mine@example.com", theirs: "theirs@example.com")]))
        #expect(try backend.row("SELECT email FROM people WHERE id = 1") == ["theirs@example.com"])
    }

    @Test(arguments: BackendKind.allCases)
    func versionColumnIsBumpedAndAMovedVersionChecksTheWrittenColumns(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let form = People.form(versionColumn: "version")
        let session = try FormSession.open(form, key: People.ann, backend: backend.store)
        try session.set("name", value: "Ann Park")
        #expect(try session.save().isSuccess)
        #expect(session.baseVersion == 2)
        try backend.execute("UPDATE people SET version = version + 1, email = 'x@example.com' WHERE id = 1")
        try session.set("name", value: "Ann Kim")
        // Someone else moved the version but not the name: no conflict.
        #expect(try session.save().isSuccess)
        #expect(try backend.row("SELECT name, email, version FROM people WHERE id = 1") == ["Ann Kim", "x@example.com", "4"])
    }

    @Test(arguments: BackendKind.allCases)
    func newRecordTakesTheKeyAndDefaultsTheDatabaseAssigns(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let session = FormSession.new(People.form(), backend: backend.store)
        try session.set("name", input: "Cy Young")
        guard case .saved(_, let key) = try session.save() else {
            Issue.record("the new record was not saved")
            return
        }
        #expect(key == RecordKey("id", 2))
        #expect(session.key == RecordKey("id", 2))
        #expect(session.value("subscribed") == false)
        #expect(try backend.row("SELECT name FROM people WHERE id = 2") == ["Cy Young"])
    }

    @Test(arguments: BackendKind.allCases)
    func requiredFieldStopsTheSaveAndWritesNothing(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let session = FormSession.new(People.form(), backend: backend.store)
        try session.set("email", input: "x@example.com")
        guard case .invalid(let errors) = try session.save() else {
            Issue.record("a new record without a name was not refused")
            return
        }
        #expect(errors.map(\.field) == ["name"])
        #expect(try backend.count("SELECT count(*) FROM people") == 1)
    }

    @Test(arguments: BackendKind.allCases)
    func compositeKeyFindsAndUpdatesOneRow(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let key = RecordKey(columns: ["order", "line"], values: [1, 2])
        let session = try FormSession.open(People.lineForm, key: key, backend: backend.store)
        #expect(session.value("product") == "Cake")
        try session.set("product", value: "Scone")
        #expect(try session.save().isSuccess)
        #expect(try backend.row(#"SELECT product FROM lines WHERE "order" = 1 AND line = 1"#) == ["Tea"])
        #expect(try backend.row(#"SELECT product FROM lines WHERE "order" = 1 AND line = 2"#) == ["Scone"])
    }

    @Test(arguments: BackendKind.allCases)
    func cancelBringsBackTheStoredValuesAndWritesNothing(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let session = try FormSession.open(People.form(), key: People.ann, backend: backend.store)
        try session.set("name", value: "Zed")
        try session.cancel()
        #expect(session.value("name") == "Ann Lee")
        #expect(!session.isDirty)
        #expect(try backend.row("SELECT name FROM people WHERE id = 1") == ["Ann Lee"])
    }

    @Test(arguments: BackendKind.allCases)
    func editModeIsReadOnlyUntilEditingBegins(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let session = try FormSession.open(People.form(mode: .edit), key: People.ann, backend: backend.store)
        #expect(throws: SessionError.self) { try session.set("name", value: "Zed") }
        try session.beginEditing()
        try session.set("name", value: "Zed")
        #expect(try session.save().isSuccess)
        #expect(try backend.row("SELECT name FROM people WHERE id = 1") == ["Zed"])
    }

    @Test(arguments: BackendKind.allCases)
    func frozenModeRefusesEveryChange(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let session = try FormSession.open(People.form(mode: .frozen), key: People.ann, backend: backend.store)
        #expect(throws: SessionError.self) { try session.set("name", value: "Zed") }
        #expect(session.whyNotEditable("name") != nil)
    }

    @Test(arguments: BackendKind.allCases)
    func freeModeSavesEachValidChangeAtOnce(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let session = try FormSession.open(People.form(mode: .free), key: People.ann, backend: backend.store)
        let outcome = try session.set("subscribed", value: true)
        #expect(outcome?.isSuccess == true)
        #expect(try backend.count("SELECT count(*) FROM people WHERE subscribed") == 1)
        #expect(!session.isDirty)
    }

    @Test(arguments: BackendKind.allCases)
    func deleteRemovesTheRecordAndAGoneRecordIsReported(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let session = try FormSession.open(People.form(), key: People.ann, backend: backend.store)
        let other = try FormSession.open(People.form(), key: People.ann, backend: backend.store)
        try session.delete()
        #expect(try backend.count("SELECT count(*) FROM people") == 0)
        try other.set("name", value: "Zed")
        #expect(try other.save() == .notFound)
    }

    @Test(arguments: BackendKind.allCases)
    func theAsyncAPIReadsAndSavesTheSame(_ kind: BackendKind) async throws {
        let backend = try TestBackend(kind, schema: People.schema)
        let session = try await FormSession.open(People.form(), key: People.ann, backend: backend.store)
        try session.set("score", value: 99.25)
        #expect(try await session.save().isSuccess)
        #expect(try await backend.store.load(People.form(), key: People.ann)?.values["score"] == 99.25)
    }
}
