import Testing
@testable import FormCore

@Suite struct LifecycleTests {
    let key = RecordKey("id", 1)

    @Test func typingTheOldValueBackMakesAFieldClean() throws {
        let session = try FormSession.open(profileForm(), key: key, backend: profileBackend())
        #expect(session.dirtyFields.isEmpty)
        try session.set("lastName", value: "Park")
        #expect(session.dirtyFields == ["lastName"])
        #expect(session.hasUnsavedChanges)
        #expect(session.unsavedChangesWarning == Form.defaultUnsavedChangesWarning)
        try session.set("lastName", value: "Lee")
        #expect(session.dirtyFields.isEmpty)
        #expect(!session.hasUnsavedChanges)
        #expect(session.unsavedChangesWarning == nil)
        #expect(session.touched.contains("lastName"))
    }

    /// A field holding nothing shows empty text: typed back (a web form that
    /// posts every field, a service echoing `text(_:)`), it stays nothing,
    /// where it wrote '' over NULL. A NOT NULL field's empty text is a value.
    @Test func emptyTextOverNothingIsNoChange() throws {
        let backend = profileBackend()
        backend.put(["id": 1, "firstName": "Ann", "lastName": .null, "newsletter": false])
        let session = try FormSession.open(profileForm(), key: key, backend: backend)
        try session.set("lastName", input: session.text("lastName"))
        #expect(session.dirtyFields.isEmpty)
        try session.set("lastName", input: "Lee")
        try session.set("lastName", input: "")
        #expect(session.dirtyFields.isEmpty)
        #expect(session.value("lastName") == .null)
        try session.set("firstName", input: "")
        #expect(session.value("firstName") == "")

        var form = profileForm()
        form.sections[0].fields[2].isNotNull = true
        let new = FormSession.new(form, backend: backend)
        try new.set("lastName", input: "")
        #expect(new.value("lastName") == "")
    }

    /// A field a change shows is checked as changed: required and empty,
    /// it stops the save (it was a warning, "stored so", and saved).
    @Test func aRequiredFieldAChangeShowsMustBeFilled() throws {
        var subscribed = Field(key: "subscribed", label: "Subscribed", kind: .bool)
        subscribed.isStored = true
        var reason = Field(key: "reason", label: "Why unsubscribed", kind: .text)
        reason.isRequired = true
        reason.hiddenWhen = .equals("subscribed", .bool(true))
        var form = Form(name: "contact", title: "Contact", sections: [Section(nil, fields: [subscribed, reason])])
        form.table = "contacts"
        let backend = MemoryBackend(keyColumns: ["id"])
        backend.put(["id": 1, "subscribed": true, "reason": .null])
        let session = try FormSession.open(form, key: key, backend: backend)
        try session.set("subscribed", value: false)
        guard case .invalid(let errors) = try session.save() else {
            Issue.record("saved with the shown required field empty")
            return
        }
        #expect(errors.map(\.field) == ["reason"])
        #expect(session.warnings.isEmpty)
        let plan = session.pipeline.plan(isNew: false, pristine: ["id": 1, "subscribed": true, "reason": .null],
                                      values: ["id": 1, "subscribed": false, "reason": .null], given: ["subscribed"],
                                      editing: true)
        guard case .invalid(let planned, _) = plan else {
            Issue.record("the pipeline planned the write: \(plan)")
            return
        }
        #expect(planned.map(\.field) == ["reason"])
        try session.set("reason", input: "too much mail")
        #expect(try session.save().isSuccess)
    }

    /// A rule over a field never stored (a repeated password) warns of
    /// nothing when neither is changed, and still holds when one is.
    @Test func aRuleOverAFieldNeverStoredWarnsOfNothing() throws {
        let password = Field(key: "pw", label: "Password", kind: .password)
        var again = Field(key: "pw2", label: "Password again", kind: .password)
        again.isStored = false
        let note = Field(key: "note", label: "Note", kind: .text)
        var form = Form(name: "account", title: "Account", sections: [Section(nil, fields: [password, again, note])])
        form.rules = [.fieldsEqual("pw2", other: "pw", code: "mismatch", message: "Passwords differ")]
        form.table = "accounts"
        let backend = MemoryBackend(keyColumns: ["id"])
        backend.put(["id": 1, "pw": "secret", "note": "n"])
        let session = try FormSession.open(form, key: key, backend: backend)
        try session.set("note", input: "m")
        #expect(try session.save().isSuccess)
        #expect(session.warnings.isEmpty)
        try session.set("pw", input: "other")
        guard case .invalid(let errors) = try session.save() else {
            Issue.record("a changed password saved without its repetition")
            return
        }
        #expect(errors.map(\.message) == ["Passwords differ"])
    }

    @Test func unsavedChangesWarningCanBeChangedOrTurnedOff() throws {
        var form = profileForm()
        form.unsavedChangesWarning = "Leave without saving?"
        let custom = try FormSession.open(form, key: key, backend: profileBackend())
        try custom.set("lastName", value: "Park")
        #expect(custom.unsavedChangesWarning == "Leave without saving?")
        form.unsavedChangesWarning = nil
        let off = try FormSession.open(form, key: key, backend: profileBackend())
        try off.set("lastName", value: "Park")
        #expect(off.hasUnsavedChanges)
        #expect(off.unsavedChangesWarning == nil)
    }

    @Test func saveWritesOnlyTheChangedColumns() throws {
        let backend = profileBackend()
        let session = try FormSession.open(profileForm(), key: key, backend: backend)
        try session.set("lastName", value: "Park")
        // Another writer changes a column this session does not touch.
        backend.put(["id": 1, "firstName": "Annie", "lastName": "Lee", "newsletter": false])
        let outcome = try session.save()
        #expect(outcome == .saved(changed: ["lastName"], key: key))
        let stored = try #require(backend.record(key))
        #expect(stored.values["lastName"] == "Park")
        #expect(stored.values["firstName"] == "Annie", "the other writer's column is kept")
        #expect(session.value("firstName") == "Annie", "the session shows the other writer's value")
        #expect(session.dirtyFields.isEmpty)
        #expect(session.pristine == stored.values)
    }

    @Test func cancelAndNoOpSaveWriteNothing() throws {
        let backend = profileBackend()
        let writes = backend.writeCount
        let session = try FormSession.open(profileForm(), key: key, backend: backend)
        #expect(try session.save() == .unchanged)
        try session.set("lastName", value: "Park")
        try session.cancel()
        #expect(session.value("lastName") == "Lee")
        #expect(session.dirtyFields.isEmpty)
        #expect(backend.writeCount == writes)
        #expect(backend.record(key)?.values["lastName"] == "Lee")
    }

    @Test func saveValidatesEveryFieldFirstAndWritesNothingWhenInvalid() throws {
        let backend = profileBackend()
        let writes = backend.writeCount
        let session = try FormSession.open(profileForm(), key: key, backend: backend)
        try session.set("firstName", value: "")
        try session.set("lastName", value: "Park")
        guard case .invalid(let errors) = try session.save() else {
            Issue.record("an empty required field saved")
            return
        }
        #expect(errors.map(\.field) == ["firstName"])
        #expect(errors.first?.code == "required")
        #expect(backend.writeCount == writes)
    }

    @Test func conflictOnAColumnBothChangedWritesNothing() throws {
        let backend = profileBackend()
        let session = try FormSession.open(profileForm(), key: key, backend: backend)
        try session.set("lastName", value: "Park")
        backend.put(["id": 1, "firstName": "Ann", "lastName": "Kim", "newsletter": false])
        let outcome = try session.save()
        #expect(outcome == .conflict([FieldConflict(field: "lastName", base: "Lee", mine: "Park", theirs: "Kim")]))
        #expect(backend.record(key)?.values["lastName"] == "Kim")
        #expect(session.dirtyFields == ["lastName"], "the edit is kept for the person to resolve")
    }

    @Test func versionColumnConflictsOnlyWhereWrittenColumnsMoved() throws {
        let backend = profileBackend(versionColumn: "version")
        let form = profileForm(versionColumn: "version")
        let session = try FormSession.open(form, key: key, backend: backend)
        #expect(session.baseVersion == 1)
        try session.set("lastName", value: "Park")
        // Someone else changes another column: the version moves, but it is no conflict.
        backend.put(["id": 1, "firstName": "Annie", "lastName": "Lee", "newsletter": false, "version": 1],
                    versionColumn: "version")
        #expect(try session.save() == .saved(changed: ["lastName"], key: key))
        #expect(session.baseVersion == 3)
        #expect(backend.record(key)?.values["version"] == 3)
        // And now the same column.
        try session.set("lastName", value: "Moss")
        backend.put(["id": 1, "firstName": "Annie", "lastName": "Kim", "newsletter": false], versionColumn: "version")
        #expect(try session.save() == .conflict([FieldConflict(field: "lastName", base: "Park", mine: "Moss", theirs: "Kim")]))
    }

    @Test func rowDeletedUnderneathIsNotFound() throws {
        let backend = profileBackend()
        let session = try FormSession.open(profileForm(), key: key, backend: backend)
        try session.set("lastName", value: "Park")
        _ = try backend.delete(profileForm(), key: key, deletingDraft: nil)
        #expect(try session.save() == .notFound)
        #expect(throws: SessionError.self) { try session.reload() }
    }

    @Test func openingAMissingRecordIsNotFound() {
        do {
            _ = try FormSession.open(profileForm(), key: RecordKey("id", 42), backend: profileBackend())
            Issue.record("opened a missing record")
        } catch let error as SessionError {
            #expect(error.reason == .notFound)
            #expect(error.message == "profile: no record with key 42")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func reloadKeepsDirtyEditsAndTakesOtherStoredValues() throws {
        let backend = profileBackend()
        let session = try FormSession.open(profileForm(), key: key, backend: backend)
        try session.set("lastName", value: "Park")
        backend.put(["id": 1, "firstName": "Annie", "lastName": "Kim", "newsletter": true])
        let conflicts = try session.reload()
        #expect(session.value("lastName") == "Park")
        #expect(session.value("firstName") == "Annie")
        #expect(session.value("newsletter") == true)
        #expect(conflicts == [FieldConflict(field: "lastName", base: "Lee", mine: "Park", theirs: "Kim")])
    }

    @Test func freeModeSavesEachValidChangeAtOnce() throws {
        let backend = profileBackend()
        let session = try FormSession.open(profileForm(mode: .free), key: key, backend: backend)
        let outcome = try session.set("lastName", value: "Park")
        #expect(outcome == .saved(changed: ["lastName"], key: key))
        #expect(backend.record(key)?.values["lastName"] == "Park")
        #expect(session.dirtyFields.isEmpty)
        // The value it holds already writes nothing.
        let writes = backend.writeCount
        #expect(try session.set("lastName", value: "Park") == .unchanged)
        #expect(backend.writeCount == writes)
        // An invalid change stays as input with its error and is not saved.
        #expect(try session.set("firstName", value: "") == nil)
        #expect(session.errors("firstName").map(\.code) == ["required"])
        #expect(backend.record(key)?.values["firstName"] == "Ann")
        #expect(session.hasUnsavedChanges)
    }

    @Test func newRecordIsInsertedWithItsDefaultsAndGetsAKey() throws {
        let backend = MemoryBackend(keyColumns: ["id"])
        var form = profileForm()
        form.sections[0].fields[3].defaultValue = true
        let session = FormSession.new(form, backend: backend)
        try session.set("firstName", value: "Bo")
        guard case .saved(let changed, let newKey) = try session.save() else {
            Issue.record("new record not saved")
            return
        }
        #expect(newKey == RecordKey("id", 1))
        #expect(changed.contains("firstName"))
        #expect(backend.record(newKey)?.values["newsletter"] == true)
        #expect(session.key == newKey)
        #expect(!session.hasUnsavedChanges)
    }
}
