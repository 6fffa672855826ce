import FormCore
import FormStoreTestSupport
import Foundation
import Testing
@testable import FormStorage

/// Sessions over SQLite: records by key, only changed columns written,
/// conflicts, drafts deleted in the save's transaction, awkward tables.
@Suite struct FormStoreTests {
    let directory: TemporaryDirectory
    let store: FormStore

    init() throws {
        directory = try TemporaryDirectory()
        store = try FormStore(path: directory.path("forms.sqlite"))
        try store.database.write { conn in
            try conn.executeScript(#"""
                CREATE TABLE profiles (id INTEGER PRIMARY KEY, firstName TEXT NOT NULL, lastName TEXT,
                    newsletter INTEGER NOT NULL DEFAULT 0, birthdate TEXT, version INTEGER NOT NULL DEFAULT 1);
                INSERT INTO profiles (firstName, lastName, newsletter, birthdate) VALUES ('Ann', 'Lee', 0, '1990-04-01');
                CREATE TABLE "order items" ("order" INTEGER, "line ""no""" INTEGER, product TEXT NOT NULL,
                    PRIMARY KEY ("order", "line ""no""")) WITHOUT ROWID;
                INSERT INTO "order items" VALUES (1, 1, 'Tea'), (1, 2, 'Cake');
                """#)
        }
    }

    func profileForm(versionColumn: String? = nil) -> Form {
        var first = Field(key: "firstName", label: "First name", kind: .name)
        first.isRequired = true
        var form = Form(name: "profile", sections: [Section(fields: [
            first, Field(key: "lastName", label: "Last name", kind: .name),
            Field(key: "newsletter", label: "Newsletter", kind: .bool),
            Field(key: "birthdate", label: "Birthdate", kind: .date),
        ])])
        form.table = "profiles"
        form.versionColumn = versionColumn
        return form
    }

    func row(_ sql: String) throws -> Row? {
        try store.database.read { try $0.fetchOne(sql) }
    }

    @Test func loadDecodesThroughStorageCodings() throws {
        let session = try FormSession.open(profileForm(), key: RecordKey("id", 1), backend: store)
        #expect(session.value("firstName") == "Ann")
        #expect(session.value("newsletter") == false)
        guard case .date = session.value("birthdate") else {
            Issue.record("birthdate read as \(session.value("birthdate"))")
            return
        }
    }

    @Test func saveWritesOnlyChangedColumnsAndKeepsAnotherWritersColumn() throws {
        let session = try FormSession.open(profileForm(), key: RecordKey("id", 1), backend: store)
        try session.set("lastName", value: "Park")
        try store.database.write { try $0.execute("UPDATE profiles SET firstName = 'Annie' WHERE id = 1") }
        #expect(try session.save() == .saved(changed: ["lastName"], key: RecordKey("id", 1)))
        let stored = try #require(try row("SELECT firstName, lastName FROM profiles WHERE id = 1"))
        #expect(stored[0] == "Annie")
        #expect(stored[1] == "Park")
    }

    @Test func conflictWritesNothingAndReportsBaseMineTheirs() throws {
        let session = try FormSession.open(profileForm(), key: RecordKey("id", 1), backend: store)
        try session.set("lastName", value: "Park")
        try store.database.write { try $0.execute("UPDATE profiles SET lastName = 'Kim' WHERE id = 1") }
        #expect(try session.save() == .conflict([FieldConflict(field: "lastName", base: "Lee", mine: "Park", theirs: "Kim")]))
        #expect(try row("SELECT lastName FROM profiles WHERE id = 1")?[0] == "Kim")
    }

    @Test func versionColumnIsCheckedAndBumped() throws {
        let form = profileForm(versionColumn: "version")
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        try session.set("lastName", value: "Park")
        #expect(try session.save().isSuccess)
        #expect(try row("SELECT version FROM profiles WHERE id = 1")?[0] == 2)
        #expect(session.baseVersion == 2)
        // Another writer bumps the version and changes a column this session writes.
        try store.database.write {
            try $0.execute("UPDATE profiles SET lastName = 'Kim', version = version + 1 WHERE id = 1")
        }
        try session.set("lastName", value: "Moss")
        #expect(try session.save() == .conflict([FieldConflict(field: "lastName", base: "Park", mine: "Moss", theirs: "Kim")]))
    }

    /// A writer that changes a column and not the version (another
    /// application, a hand edit) is no reason to save over its change: the
    /// values are compared whether or not the version moved. Trusting an
    /// unmoved version saved "Moss" over "Kim", unasked.
    @Test func aChangeThatLeftTheVersionAloneIsStillAConflict() throws {
        let session = try FormSession.open(profileForm(versionColumn: "version"), key: RecordKey("id", 1), backend: store)
        try store.database.write { try $0.execute("UPDATE profiles SET lastName = 'Kim' WHERE id = 1") }
        try session.set("lastName", value: "Moss")
        #expect(try session.save() == .conflict([FieldConflict(field: "lastName", base: "Lee", mine: "Moss", theirs: "Kim")]))
        let stored = try #require(try row("SELECT lastName, version FROM profiles WHERE id = 1"))
        #expect(stored[0] == "Kim" && stored[1] == 1)
    }

    /// A conflict on a secure field keeps its values to be settled by
    /// (`mine`, `theirs`), but its text and JSON show none of them: the
    /// outcome a service encodes carried the password it replaced, the
    /// caller's and another writer's.
    @Test func aSecureFieldsConflictShowsNoSecret() throws {
        var form = profileForm()
        form.sections[0].fields[1].isSecure = true
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
        try session.set("lastName", value: "mine-secret")
        try store.database.write { try $0.execute("UPDATE profiles SET lastName = 'their-secret' WHERE id = 1") }
        let outcome = try session.save()
        guard case .conflict(let conflicts) = outcome, let conflict = conflicts.first else {
            Issue.record("saved as \(outcome)")
            return
        }
        #expect(conflict.mine == "mine-secret" && conflict.theirs == "their-secret" && conflict.isSecure)
        let json = String(decoding: try JSONEncoder().encode(outcome), as: UTF8.self)
        let text = "\(outcome)"
        for secret in ["Lee", "mine-secret", "their-secret"] {
            #expect(!json.contains(secret) && !text.contains(secret), "\(json) \(text)")
        }
        #expect(json.contains(Field.shownSecret))
    }

    @Test func deletedUnderneathIsNotFound() throws {
        let session = try FormSession.open(profileForm(), key: RecordKey("id", 1), backend: store)
        try session.set("lastName", value: "Park")
        try store.database.write { try $0.execute("DELETE FROM profiles WHERE id = 1") }
        #expect(try session.save() == .notFound)
    }

    @Test func newRecordGetsItsRowIDAndTableDefaults() throws {
        let session = FormSession.new(profileForm(), backend: store)
        try session.set("firstName", value: "Bo")
        guard case .saved(_, let key) = try session.save() else {
            Issue.record("not saved")
            return
        }
        #expect(key == RecordKey("id", 2))
        #expect(try row("SELECT firstName, newsletter FROM profiles WHERE id = 2").map { [$0[0], $0[1]] } == ["Bo", 0])
    }

    @Test func saveDeletesTheDraftInItsTransaction() throws {
        let session = try FormSession.open(profileForm(), key: RecordKey("id", 1), backend: store, drafts: store,
                                           autosave: .init(interval: .milliseconds(10), fallback: nil))
        try session.set("lastName", value: "Park")
        session.close()
        #expect(try store.drafts(form: "profile").count == 1)
        #expect(try session.save().isSuccess)
        #expect(try store.drafts(form: nil).isEmpty)
        #expect(try row("SELECT count(*) FROM formstore_drafts")?[0] == 0)
    }

    @Test func draftsAreFoundByRecordKeyAndExpire() throws {
        let key = RecordKey(columns: ["order", "line \"no\""], values: [1, 2])
        let draft = Draft(id: "d1", form: "items", recordKey: key, formVersion: 1, base: ["product": "Cake"],
                          baseVersion: nil, values: ["product": "Pie"], inputs: [:],
                          updatedAt: Date(timeIntervalSinceNow: -3600))
        try store.writeDraft(draft)
        #expect(try store.drafts(form: "items", key: key) == [draft])
        #expect(try store.drafts(form: "items", key: nil).isEmpty)
        #expect(try store.deleteDrafts(updatedBefore: Date()) == 1)
        #expect(try store.draft(id: "d1") == nil)
    }

    @Test func compositeKeyWithoutRowIDAndQuotedNames() throws {
        var form = Form(name: "items", sections: [Section(fields: [
            Field(key: "order", kind: .integer), Field(key: "line \"no\"", kind: .integer),
            Field(key: "product", kind: .text),
        ])])
        form.table = "order items"
        let key = RecordKey(columns: ["order", "line \"no\""], values: [1, 2])
        let session = try FormSession.open(form, key: key, backend: store)
        #expect(session.value("product") == "Cake")
        try session.set("product", value: "Pie")
        #expect(try session.save().isSuccess)
        #expect(try row("SELECT product FROM \(quoteIdentifier("order items")) WHERE \(quoteIdentifier("line \"no\"")) = 2")?[0] == "Pie")
        try session.beginEditingIfNeeded()
        try session.delete()
        #expect(try row(#"SELECT count(*) FROM "order items""#)?[0] == 1)
    }

    @Test func aFieldWithoutAColumnIsNamed() throws {
        var form = profileForm()
        form.sections[0].fields.append(Field(key: "nickname"))
        do {
            _ = try store.load(form, key: RecordKey("id", 1))
            Issue.record("missing column accepted")
        } catch let error as FormStoreError {
            #expect(error.reason == .unknownColumn)
            #expect(error.message.contains("'nickname'"))
            #expect(error.message.contains("'profiles'"))
        }
    }
}

extension FormSession {
    func beginEditingIfNeeded() throws {
        if form.mode == .edit && !isEditing { try beginEditing() }
    }
}
