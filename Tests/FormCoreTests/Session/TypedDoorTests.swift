import FormBasics
@testable import FormCore
import Foundation
import Testing

/// Records in and out as the model type, through the form's transforms and rules.
@Suite struct TypedDoorTests {
    struct Ticket: Codable, Equatable {
        enum Priority: Int, Codable, CaseIterable { case low = 1, high = 5 }
        var id: Int?
        var title: String
        var priority: Priority
        var tags: [String]
        var due: Date?
    }

    let form: Form = {
        var form = Form("ticket", for: Ticket.self) {
            Section {
                Field("Title", \Ticket.title).required().minLength(3)
                Field("Priority", \Ticket.priority)
                Field("Tags", \Ticket.tags)
                Field("Due", \Ticket.due)
            }
        }
        form.primaryKey = ["id"]
        return form
    }()

    @Test func aValueIsInsertedThroughTheTransformsAndReadBackAsTheModel() throws {
        let backend = MemoryBackend()
        let day = ISO8601.parseDate("2026-12-01")!
        let outcome = try backend.save(Ticket(id: nil, title: "  Printer jam ", priority: .high, tags: ["3rd floor"], due: day),
                                       form: form)
        guard case .saved(_, let key) = outcome else { Issue.record("not saved: \(outcome)"); return }
        let ticket = try #require(try backend.load(Ticket.self, form: form, key: key))
        #expect(ticket.title == "Printer jam", "the text kind's trim ran")
        #expect(ticket.priority == .high)
        #expect(ticket.tags == ["3rd floor"])
        #expect(ticket.due == day)
        #expect(ticket.id == key["id"]?.intValue.map(Int.init))
        #expect(try backend.load(Ticket.self, form: form, key: RecordKey("id", 99)) == nil)
    }

    @Test func rulesRunOnAValueAsOnAnyInput() throws {
        let backend = MemoryBackend()
        let outcome = try backend.save(Ticket(id: nil, title: "ok", priority: .low, tags: [], due: nil), form: form)
        guard case .invalid(let errors) = outcome else { Issue.record("saved: \(outcome)"); return }
        #expect(errors.map(\.field) == ["title"])
        #expect(errors.map(\.code) == ["minLength"])
    }

    @Test func aStoredRecordIsSavedFromAValueWhereItDiffers() throws {
        let backend = MemoryBackend()
        guard case .saved(_, let key) = try backend.save(Ticket(id: nil, title: "Printer jam", priority: .low, tags: [], due: nil),
                                                          form: form) else { Issue.record("not saved"); return }
        var ticket = try #require(try backend.load(Ticket.self, form: form, key: key))
        ticket.priority = .high
        #expect(try backend.save(ticket, form: form, key: key) == .saved(changed: ["priority"], key: key))
        #expect(try backend.save(ticket, form: form, key: key) == .unchanged)
        #expect(try backend.save(ticket, form: form, key: RecordKey("id", 99)) == .notFound)
    }

    @Test func aSessionPrefilledFromAValueIsReadAsTheModel() throws {
        let session = try FormSession.new(form, from: Ticket(id: nil, title: "Jam", priority: .high, tags: ["a"], due: nil),
                                          backend: MemoryBackend())
        #expect(session.dirtyFields == ["title", "priority", "tags"])
        #expect(try session.model(as: Ticket.self) == Ticket(id: nil, title: "Jam", priority: .high, tags: ["a"], due: nil))
    }
}
