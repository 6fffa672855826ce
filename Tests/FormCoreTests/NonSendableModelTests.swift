import Testing
@testable import FormCore

/// An application's own model class, shared with its views: not `Sendable`,
/// so its binding and backend are not either (they would be for a `Sendable`
/// model). That this file compiles is half the proof; the tests show the rest.
final class Preferences: FormModel {
    var theme = "light"
    var fontSize = 12

    var allKeys: [String] { ["fontSize", "theme"] }

    func value(forKey key: String) -> FieldValue {
        switch key {
        case "theme": .text(theme)
        case "fontSize": .int(Int64(fontSize))
        default: .null
        }
    }

    func setValue(_ value: FieldValue, forKey key: String) throws {
        switch (key, value) {
        case ("theme", .text(let text)): theme = text
        case ("fontSize", .int(let size)): fontSize = Int(size)
        case ("theme", _), ("fontSize", _): throw ModelError.typeMismatch(key, "\(value) does not fit")
        default: throw ModelError.missingKey(key)
        }
    }
}

/// Compiles only for a `Sendable` type.
private func requireSendable<T: Sendable>(_: T.Type) {}

@Suite struct NonSendableModelTests {
    static let form = Form(name: "preferences", sections: [Section(fields: [
        Field(key: "theme", kind: .text).required(),
        Field(key: "fontSize", kind: .integer).range(8...32),
    ])])

    @Test func aClassModelIsBoundAndEditedThroughASession() throws {
        let preferences = Preferences()
        let binding = try FormBinding(form: Self.form, model: preferences)
        let session = try FormSession.bound(to: binding)
        #expect(session.current == ["theme": "light", "fontSize": 12])

        try session.set("theme", input: "dark")
        try session.set("fontSize", input: "14")
        guard case .saved(let changed, let key) = try session.save() else {
            Issue.record("the edits were not saved")
            return
        }
        #expect(Set(changed) == ["fontSize", "theme"])
        #expect(key == ModelBackend<Preferences>.key)
        #expect(preferences.theme == "dark", "the application's own instance holds the edit")
        #expect(preferences.fontSize == 14)
    }

    @Test func anInvalidEditLeavesTheModelAlone() throws {
        let preferences = Preferences()
        let session = try FormSession.bound(to: try FormBinding(form: Self.form, model: preferences))
        try session.set("fontSize", input: "99")
        guard case .invalid(let errors) = try session.save() else {
            Issue.record("a font size out of range was saved")
            return
        }
        #expect(errors.map(\.field) == ["fontSize"])
        #expect(preferences.fontSize == 12)
    }

    @Test func aChangeMadeByTheApplicationIsReportedAndSeenByTheSession() throws {
        let preferences = Preferences()
        let binding = try FormBinding(form: Self.form, model: preferences)
        let session = try FormSession.bound(to: binding)
        preferences.fontSize = 20
        #expect(binding.refresh() == ["fontSize"])
        _ = try session.reload()
        #expect(session.current["fontSize"] == 20)

        // The session's base was read before the change: its own edit of the field conflicts.
        let stale = try FormSession.bound(to: binding)
        preferences.fontSize = 22
        try stale.set("fontSize", input: "16")
        guard case .conflict(let conflicts) = try stale.save() else {
            Issue.record("an edit over a change made elsewhere was saved")
            return
        }
        #expect(conflicts.map(\.field) == ["fontSize"])
        #expect(preferences.fontSize == 22)
    }

    /// The async API needs no `Sendable` backend: it runs in the caller's isolation.
    @MainActor @Test func theAsyncAPIEditsAClassModelOnTheMainActor() async throws {
        let preferences = Preferences()
        let session = try FormSession.bound(to: try FormBinding(form: Self.form, model: preferences))
        try session.set("theme", input: "sepia")
        #expect(try await session.save().isSuccess)
        #expect(preferences.theme == "sepia")
        _ = try await session.reload()
        #expect(session.current["theme"] == "sepia")
    }

    @Test func aBindingOfASendableModelIsSendable() async throws {
        struct Profile: Codable, Sendable { var name = "Ada" }
        requireSendable(FormBinding<StructModel<Profile>>.self)
        requireSendable(ModelBackend<DictionaryModel>.self)
        requireSendable(ModelBackend<SettingsModel>.self)
        let binding = try FormBinding(form: Form(name: "profile", sections: [Section(fields: [Field(key: "name")])]),
                                      model: StructModel(Profile()))
        // Sent to another task and edited there.
        try await Task.detached { try binding.write("name", .text("Grace")) }.value
        #expect(binding.model.model.name == "Grace")
    }
}
