import FormCore
import Foundation

/// The record the service edits, and the form that guards it.
struct Ticket: Codable {
    enum Status: String, Codable, CaseIterable { case open, closed }

    var id: Int?
    var title: String
    var status: Status
    var tags: [String]
    var due: Date?

    /// Choices come from `Status` (CaseIterable), tags are free-form, and
    /// FormSession checks the definition when it opens the form.
    static let form = Form("tickets", title: "Ticket", for: Ticket.self) {
        Section {
            Field("Title", \Ticket.title).required().minLength(3)
            Field("Status", \Ticket.status).required()
            Field("Tags", \Ticket.tags)
            Field("Due", \Ticket.due)
        }
    }.primaryKey("id")
}
