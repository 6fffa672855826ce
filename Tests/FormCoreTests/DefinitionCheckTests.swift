import Foundation
import Testing
@testable import FormCore

/// A form is checked where it is used: a mistake is an error naming the field, never silent.
@Suite struct DefinitionCheckTests {
    struct Ticket: Codable {
        enum Status: String, Codable, CaseIterable { case open, closed }
        var id: Int
        var status: Status
        var priority: String
        var labels: [String]
    }

    func backend() -> MemoryBackend {
        let backend = MemoryBackend()
        backend.put(["id": 1, "status": "open", "priority": "low", "labels": .list(["a"])])
        return backend
    }

    @Test func aMisspeltConditionKeyIsADefinitionErrorWhenASessionOpens() throws {
        let form = Form(name: "ticket", sections: [Section(fields: [
            Field("Status", \Ticket.status),
            Field("Priority", key: "priority").hidden(when: .equals("stauts", "closed")),
        ])])
        let error = try #require(throws: FormDefinitionError.self) {
            try FormSession.open(form, key: RecordKey("id", 1), backend: backend())
        }
        #expect(error.field == "priority")
        #expect(error.description == #"$.sections[0].fields[1].hiddenWhen.field (field "priority"): unknown field "stauts""#)
    }

    @Test func theAsyncOpenChecksTheDefinitionAsTheBlockingOneDoes() async throws {
        let form = Form(name: "ticket", sections: [Section(fields: [
            Field("Status", \Ticket.status),
            Field("Priority", key: "priority").hidden(when: .equals("stauts", "closed")),
        ])])
        let error = await #expect(throws: FormDefinitionError.self) {
            _ = try await FormSession.open(form, key: RecordKey("id", 1), backend: backend())
        }
        #expect(error?.field == "priority")
        #expect(error?.description == #"$.sections[0].fields[1].hiddenWhen.field (field "priority"): unknown field "stauts""#)
    }

    @Test func anEnumWithoutChoicesIsADefinitionError() throws {
        let form = Form(name: "ticket", sections: [Section(fields: [
            // Bound by name to an enum the form cannot see: no choices.
            Field("Priority", key: "priority", kind: .choice),
        ])])
        let error = try #require(throws: FormDefinitionError.self) {
            try FormSession.open(form, key: RecordKey("id", 1), backend: backend())
        }
        #expect(error.field == "priority")
        #expect(error.message == "a choice field needs choices")
    }

    @Test func caseIterableEnumsFillTheirChoices() throws {
        let form = Form(name: "ticket", sections: [Section(fields: [Field("Status", \Ticket.status)])])
        let field = try #require(form.field("status"))
        #expect(field.kind == .choice)
        #expect(field.choices.map(\.value) == ["open", "closed"])
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: backend())
        try session.set("status", value: "CLOSED")
        #expect(session.value("status") == "closed")
        try session.set("status", value: "urgent")
        #expect(session.validateAll().map(\.code) == ["choice"])
    }

    @Test func aListOfTextWithoutChoicesHoldsFreeFormTags() throws {
        let form = Form(name: "ticket", sections: [Section(fields: [Field("Labels", \Ticket.labels)])])
        #expect(form.definitionProblems.isEmpty)
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: backend())
        try session.apply(json: Data(#"{"labels": ["printer", "3rd floor"]}"#.utf8))
        #expect(session.value("labels") == .list(["printer", "3rd floor"]))
        #expect(session.validateAll().isEmpty)
    }
}

/// Conditions written with key paths name the property's coding key.
@Suite struct KeyPathConditionTests {
    struct Ticket: Codable {
        enum Status: String, Codable, CaseIterable { case open, closed }
        var status: Status
        var reason: String?
    }

    @Test func aKeyPathConditionHidesAFieldByItsValue() throws {
        let form = Form("ticket", for: Ticket.self) {
            Section {
                Field("Status", \Ticket.status)
                Field("Reason", \Ticket.reason).hidden(when: .notEquals(\Ticket.status, .closed))
            }
        }
        #expect(form.definitionProblems.isEmpty)
        #expect(form.field("reason")?.hiddenWhen == .notEquals("status", "closed"))
        #expect(form.isHidden(form.field("reason")!, values: ["status": "open"]))
        #expect(!form.isHidden(form.field("reason")!, values: ["status": "closed"]))
        #expect(Condition.isEmpty(\Ticket.reason) == .isEmpty("reason"))
    }
}
