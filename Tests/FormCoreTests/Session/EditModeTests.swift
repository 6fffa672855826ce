import Testing
@testable import FormCore

/// Operation × mode: what each edit mode allows, and the message when it refuses.
@Suite struct EditModeTests {
    enum Operation: String, CaseIterable {
        case setField, setEnabledWhenNotEditing, beginEditing, save, cancel, delete
    }

    /// `nil` means allowed; otherwise a fragment of the refusal message.
    static let table: [(EditMode, Bool, Operation, String?)] = [
        (.edit, false, .setField, "before editing begins"),
        (.edit, false, .setEnabledWhenNotEditing, nil),
        (.edit, false, .beginEditing, nil),
        (.edit, false, .save, "not being edited"),
        (.edit, false, .cancel, "nothing to cancel"),
        (.edit, false, .delete, "not being edited"),
        (.edit, true, .setField, nil),
        (.edit, true, .beginEditing, "already being edited"),
        (.edit, true, .save, nil),
        (.edit, true, .cancel, nil),
        (.edit, true, .delete, nil),
        (.frozen, false, .setField, "frozen"),
        (.frozen, false, .setEnabledWhenNotEditing, nil),
        (.frozen, false, .beginEditing, "edit mode"),
        (.frozen, false, .save, nil),
        (.frozen, false, .cancel, nil),
        (.frozen, false, .delete, "frozen"),
        (.save, false, .setField, nil),
        (.save, false, .setEnabledWhenNotEditing, nil),
        (.save, false, .beginEditing, "edit mode"),
        (.save, false, .save, nil),
        (.save, false, .cancel, nil),
        (.save, false, .delete, nil),
        (.free, false, .setField, nil),
        (.free, false, .beginEditing, "edit mode"),
        (.free, false, .save, "free mode"),
        (.free, false, .cancel, nil),
        (.free, false, .delete, nil),
    ]

    @Test(arguments: 0..<table.count)
    func operationIsAllowedOrRefusedWithReason(row: Int) throws {
        let (mode, editing, operation, refusal) = Self.table[row]
        let session = try FormSession.open(profileForm(mode: mode), key: RecordKey("id", 1),
                                           backend: profileBackend())
        if editing { try session.beginEditing() }
        do {
            switch operation {
            case .setField: try session.set("lastName", input: "Park")
            case .setEnabledWhenNotEditing: try session.set("newsletter", value: true)
            case .beginEditing: try session.beginEditing()
            case .save: _ = try session.save()
            case .cancel: try session.cancel()
            case .delete: try session.delete()
            }
            #expect(refusal == nil, "\(mode) editing=\(editing) \(operation) should be refused")
        } catch let error as SessionError {
            let expected = try #require(refusal, "\(mode) \(operation) refused: \(error)")
            #expect(error.message.contains(expected), "\(error.message)")
        }
    }

    @Test func readOnlyAndUnknownFieldsAreRefusedByName() throws {
        let session = try FormSession.open(profileForm(), key: RecordKey("id", 1), backend: profileBackend())
        #expect(throws: SessionError.self) { try session.set("id", input: "9") }
        do {
            try session.set("nickname", input: "x")
            Issue.record("unknown field accepted")
        } catch let error as SessionError {
            #expect(error.reason == .unknownField)
            #expect(error.message.contains("nickname"))
        }
    }

    @Test func deleteButtonIsShownOnlyWhileEditing() throws {
        let session = try FormSession.open(profileForm(mode: .edit), key: RecordKey("id", 1),
                                           backend: profileBackend())
        #expect(!session.visibleFields.map(\.key).contains("delete"))
        try session.beginEditing()
        #expect(session.visibleFields.map(\.key).contains("delete"))
        try session.cancel()
        #expect(!session.visibleFields.map(\.key).contains("delete"))
    }

    @Test func editModeEventsAreObserved() throws {
        let session = try FormSession.open(profileForm(mode: .edit), key: RecordKey("id", 1),
                                           backend: profileBackend())
        var events: [SessionEvent] = []
        session.observe { events.append($0) }
        try session.beginEditing()
        try session.set("lastName", value: "Park")
        _ = try session.save()
        #expect(events == [
            .editingChanged(isEditing: true), .valueChanged(field: "lastName"),
            .saved(changed: ["lastName"]), .editingChanged(isEditing: false),
        ])
    }
}
