import FormCore
import FormStoreTestSupport
import Foundation
import Testing
@testable import FormStorage

/// A session opened from a stored row keeps the row's slots as its current
/// values until something changes or reads them by name, and decodes a model
/// from them (issue 14): what a person or a typed caller sees is the same.
@Suite struct RecordSlotsLoadTests {
    let database: AccountsDatabase
    var path: String { database.path }
    /// The key column `id` is no field of the form: the model reads it from the key.
    var form: Form { database.form }

    init() throws {
        database = try AccountsDatabase("""
            CREATE TABLE accounts (id INTEGER PRIMARY KEY, email TEXT NOT NULL, plan TEXT, seats INTEGER);
            INSERT INTO accounts VALUES (1, 'ann@example.com', NULL, 3);
            """)
    }

    func store() throws -> FormStore { try database.store() }

    struct Account: Codable, Equatable {
        var id: Int64
        var email: String
        var plan: String?
        var seats: Int
    }

    @Test func anOpenedRecordDecodesAsTheModelWithItsKeyAndNull() throws {
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: try store())
        #expect(try session.model(as: Account.self) == Account(id: 1, email: "ann@example.com", plan: nil, seats: 3))
        #expect(try store().load(Account.self, form: form, key: RecordKey("id", 1))?.seats == 3)
        #expect(session.value("email") == .text("ann@example.com"))
        #expect(session.text("seats") == "3")
        #expect(!session.isDirty)
        #expect(session.dirtyFields.isEmpty)
    }

    @Test func twoFormsOfOneNameOpenedInTurnEachReadTheirOwnFields() throws {
        // A spec edited in place keeps its name and version: the form asked
        // for last, compared first, must not stand in for the other.
        var narrower = form
        narrower.sections[0].fields.removeAll { $0.key == "seats" }
        let store = try store()
        for _ in 0..<2 {
            let wide = try FormSession.open(form, key: RecordKey("id", 1), backend: store)
            let narrow = try FormSession.open(narrower, key: RecordKey("id", 1), backend: store)
            #expect(wide.value("seats") == .int(3))
            #expect(narrow.value("seats") == .null)
            #expect(narrow.value("email") == .text("ann@example.com"))
            #expect(throws: DecodingError.self) { try narrow.model(as: Account.self) }
        }
    }

    @Test func theValuesByNameAreThePristineOnesUntilAnEdit() throws {
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: try store())
        #expect(session.current == session.pristine)
        #expect(session.current["seats"] == .int(3))
        try session.set("seats", input: "5")
        #expect(session.current["seats"] == .int(5))
        #expect(session.pristine["seats"] == .int(3))
        #expect(session.dirtyFields == ["seats"])
        #expect(try session.model(as: Account.self).seats == 5)
    }

    @Test func anEditBeforeAnyReadByNameShowsInTheModelAndIsSaved() throws {
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: try store())
        try session.set(from: Account(id: 1, email: "ann@example.org", plan: "team", seats: 3))
        #expect(session.dirtyFields == ["email", "plan"])
        #expect(try session.model(as: Account.self) == Account(id: 1, email: "ann@example.org", plan: "team", seats: 3))
        #expect(try session.save() == .saved(changed: ["email", "plan"], key: RecordKey("id", 1)))
        #expect(try SQLiteShell().output(database: path, "SELECT email, plan, seats FROM accounts") == "ann@example.org|team|3\n")
        #expect(!session.isDirty)
    }

    @Test func cancellingAnEditGivesTheStoredModelBack() throws {
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: try store())
        try session.set("plan", input: "pro")
        try session.cancel()
        #expect(try session.model(as: Account.self) == Account(id: 1, email: "ann@example.com", plan: nil, seats: 3))
        #expect(session.value("plan") == .null)
    }
}
