import FormBasics
@testable import FormCore
import Foundation
import Testing

/// `FormSession.apply(json:)`: a request body in one call, nothing dropped in silence.
@Suite struct JSONDoorTests {
    let key = RecordKey("id", 1)

    func ticketForm() -> Form {
        var form = Form(name: "ticket", sections: [Section(fields: [
            Field(key: "id", kind: .integer).readOnly(),
            Field(key: "title", kind: .text).required(),
            Field(key: "kind", kind: .choice).choices([(value: "bug", label: "Bug"), (value: "idea", label: "Idea")]),
            Field(key: "severity", kind: .choice).choices([(value: .int(1), label: "Low"), (value: .int(5), label: "High")])
                .hidden(when: .notEquals("kind", "bug")),
            Field(key: "estimate", kind: .decimal).disabled(when: .equals("kind", "idea")),
            Field(key: "due", kind: .date),
            Field(key: "tags", kind: .multichoice).choices(["ui", "db"]),
            Field(key: "urgent", kind: .bool),
            Field(action: "close", "Close"),
        ])])
        form.primaryKey = ["id"]
        return form
    }

    func backend() -> MemoryBackend {
        let backend = MemoryBackend()
        backend.put(["id": 1, "title": "Printer jam", "kind": "idea", "severity": nil, "estimate": nil,
                     "due": nil, "tags": .list([]), "urgent": false])
        return backend
    }

    func body(_ text: String) -> Data { Data(text.utf8) }

    @Test func machineFormsAreReadAndSaved() throws {
        let backend = backend()
        let session = try FormSession.open(ticketForm(), key: key, backend: backend)
        try session.apply(json: body(#"""
            {"title": "  Paper jam ", "kind": "Bug", "severity": 5, "estimate": 2, "due": "2026-12-01",
             "tags": ["db", "UI"], "urgent": true}
            """#))
        #expect(session.value("title") == "Paper jam")          // the kind's trim ran
        #expect(session.value("kind") == "bug")                 // by label, stored as the value
        #expect(session.value("severity") == .int(5))           // a value, never a position
        #expect(session.value("estimate") == .double(2))
        #expect(session.value("due") == .date(ISO8601.parseDate("2026-12-01")!))
        #expect(session.value("tags") == .list(["db", "ui"]))
        #expect(session.value("urgent") == true)
        let outcome = try session.save()
        guard case .saved(let changed, _) = outcome else { Issue.record("not saved: \(outcome)"); return }
        #expect(Set(changed) == ["title", "kind", "severity", "estimate", "due", "tags", "urgent"])
        #expect(backend.record(key)?.values["severity"] == .int(5))
    }

    @Test func isoDateTimesInEveryAcceptedLayout() throws {
        var form = ticketForm()
        form.sections[0].fields[5] = Field(key: "due", kind: .datetime)
        let session = try FormSession.open(form, key: key, backend: backend())
        let moment = ISO8601.parseDateTime("2026-12-01T09:30:00Z")!
        for text in ["2026-12-01T09:30:00Z", "2026-12-01 09:30:00", "2026-12-01T10:30:00+01:00", "2026-12-01T09:30"] {
            try session.apply(json: body(#"{"due": "\#(text)"}"#))
            #expect(session.value("due") == .date(moment), "\(text)")
        }
        try session.apply(json: body(#"{"due": null}"#))
        #expect(session.value("due") == .null)
    }

    @Test func aDateFieldRefusesATimeOfDayRatherThanCutItOff() throws {
        let session = try FormSession.open(ticketForm(), key: key, backend: backend())
        let error = try #require(throws: JSONBodyError.self) {
            try session.apply(json: body(#"{"due": "2026-12-01 09:30:00"}"#))
        }
        #expect(error.errors.map(\.code) == ["date"])
        try session.apply(json: body(#"{"due": "2026-12-01T00:00:00Z"}"#))
        #expect(session.value("due") == .date(ISO8601.parseDate("2026-12-01")!))
    }

    @Test func unknownHiddenDisabledReadOnlyAndMistypedKeysAreErrorsAndNothingIsSet() throws {
        let session = try FormSession.open(ticketForm(), key: key, backend: backend())
        // kind stays "idea": severity is hidden and estimate disabled.
        let error = try #require(throws: JSONBodyError.self) {
            try session.apply(json: body(#"""
                {"title": "New", "titel": "x", "severity": 5, "estimate": 3, "id": 9, "urgent": "maybe", "close": true}
                """#))
        }
        let codes = Dictionary(error.errors.map { ($0.field ?? "", $0.code) }, uniquingKeysWith: { a, _ in a })
        #expect(codes == ["titel": "unknownField", "severity": "hidden", "estimate": "disabled", "id": "readOnly",
                          "urgent": "bool", "close": "notEditable"])
        #expect(session.value("title") == "Printer jam", "all or nothing: the valid member is not set either")
        #expect(session.dirtyFields.isEmpty)
    }

    @Test func aFieldShownByTheSameBodyMayBeSet() throws {
        let session = try FormSession.open(ticketForm(), key: key, backend: backend())
        try session.apply(json: body(#"{"severity": "High", "kind": "bug"}"#))
        #expect(session.value("severity") == .int(5))
    }

    @Test func valuesOfTheWrongKindAreErrors() throws {
        let session = try FormSession.open(ticketForm(), key: key, backend: backend())
        let error = try #require(throws: JSONBodyError.self) {
            try session.apply(json: body(#"{"title": true, "estimate": {"a": 1}}"#))
        }
        // An object is a document, which only a text field keeps (as its JSON text).
        #expect(error.errors.map(\.code) == ["kind", "kind"])
        #expect(error.errors.map(\.field) == ["title", "estimate"])
        #expect(error.errors.last?.message == "estimate cannot hold a JSON object")
    }

    /// A number no double holds is refused as one that cannot be held, not
    /// taken: `1e-400` was read as 0 and saved, and `1e309` was called no JSON.
    @Test func aNumberNoDoubleHoldsIsRefused() throws {
        let session = try FormSession.open(ticketForm(), key: key, backend: backend())
        for number in ["1e-400", "1e309", "-1e309"] {
            let error = try #require(throws: JSONBodyError.self) { try session.apply(json: body(#"{"estimate": \#(number)}"#)) }
            #expect(error.errors.first?.message.hasPrefix("a number in the body cannot be held exactly") == true, "\(number): \(error)")
        }
        try session.apply(json: body(#"{"kind": "bug", "estimate": 0e-400}"#))
        #expect(session.value("estimate") == .double(0))
    }

    /// A list for a one-choice field, an array holding objects for a list
    /// field, and a whole number other than 1 or 0 for a stored record's bool
    /// are refused, and nothing is set. The list was taken (each item a
    /// choice) and saved as the list; the array's JSON text was split at its
    /// commas into items; 2 was saved as yes, written as 1.
    @Test func aValueTheFieldWouldMisreadIsRefused() throws {
        let session = try FormSession.open(ticketForm(), key: key, backend: backend())
        let error = try #require(throws: JSONBodyError.self) {
            try session.apply(json: body(#"{"kind": ["bug", "idea"], "tags": ["ui", {"k": "v", "k2": "v2"}], "urgent": 2}"#))
        }
        #expect(error.errors.map(\.field) == ["kind", "tags", "urgent"])
        #expect(error.errors.map(\.message) == ["kind cannot hold a list", "tags cannot hold a JSON object",
                                                 "urgent cannot hold a number"])
        #expect(session.value("kind") == "idea" && session.value("urgent") == false && !session.isDirty)
        // 1 and 0 are yes and no; a new record's other number is a yes written as given, as an import writes it.
        try session.apply(json: body(#"{"urgent": 1}"#))
        #expect(session.value("urgent") == true)
        let new = FormSession.new(ticketForm(), backend: backend())
        try new.apply(json: body(#"{"title": "x", "urgent": -1}"#))
        #expect(new.value("urgent") == true)
    }

    /// A number for a text field is its numeral, as `FIELD:=42` and an import
    /// take it (a column of no type then keeps it a number); it was refused.
    @Test func aNumberForTextIsItsNumeral() throws {
        let session = try FormSession.open(ticketForm(), key: key, backend: backend())
        try session.apply(json: body(#"{"title": 42}"#))
        #expect(session.value("title") == "42")
    }

    /// A number for a field that reads hex as bytes (a BLOB or untyped
    /// column's) is the number, as `FIELD:=42` and an import store it; JSON
    /// text stays text. Both were taken as text.
    @Test func aNumberForABytesFieldIsTheNumber() throws {
        var form = Form(name: "blob", sections: [Section(fields: [
            Field(key: "id", kind: .integer).readOnly(), Field(key: "data").transform(.hex), Field(key: "raw").transform(.blobLiteral),
        ])])
        form.primaryKey = ["id"]
        let backend = MemoryBackend()
        backend.put(["id": 1, "data": nil, "raw": nil])
        let session = try FormSession.open(form, key: key, backend: backend)
        try session.apply(json: body(#"{"data": 42, "raw": 4.5}"#))
        #expect(session.value("data") == .int(42))
        #expect(session.value("raw") == .double(4.5))
        try session.apply(json: body(#"{"data": "CAFE"}"#))
        #expect(session.value("data") == "CAFE")
    }

    /// An object is its JSON text, as import and `set F:=` read it: a text
    /// field (a JSON column's) takes it; `$base64` that is no base64 is an error.
    @Test func anObjectIsItsJSONText() throws {
        let session = try FormSession.open(ticketForm(), key: key, backend: backend())
        try session.apply(json: body(#"{"title": {"en": "Jam", "n": [1, 2.5]}}"#))
        #expect(session.value("title") == .text(#"{"en":"Jam","n":[1,2.5]}"#))
        let error = try #require(throws: JSONBodyError.self) {
            try session.apply(json: body(#"{"title": {"$base64": "not base64!"}}"#))
        }
        #expect(error.errors.map(\.message) == ["title: $base64 is not valid base64"])
    }

    @Test func aBodyThatIsNoObjectIsAnError() throws {
        let session = try FormSession.open(ticketForm(), key: key, backend: backend())
        for text in ["[1]", "{\"title\": ", "{\"title\": \"a\", \"title\": \"b\"}"] {
            let error = try #require(throws: JSONBodyError.self) { try session.apply(json: body(text)) }
            #expect(error.errors.map(\.code) == ["json"], "\(text)")
            #expect(error.errors.first?.field == nil)
        }
    }

    @Test func aHiddenFieldsChangeIsNeverDroppedInSilence() throws {
        let backend = backend()
        let session = try FormSession.open(ticketForm(), key: key, backend: backend)
        try session.set("kind", value: "bug")
        try session.set("severity", value: 5)
        try session.set("kind", value: "idea")     // hides severity again
        #expect(session.dirtyFields == ["severity"])
        let outcome = try session.save()
        guard case .invalid(let errors) = outcome else { Issue.record("saved: \(outcome)"); return }
        #expect(errors.map(\.code) == ["hidden"])
        #expect(errors.map(\.field) == ["severity"])
        #expect(backend.record(key)?.values["severity"] == .null)
    }

    @Test func outcomesAndErrorsEncodeInTheDocumentedShape() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        func json(_ outcome: SaveOutcome) throws -> String { String(decoding: try encoder.encode(outcome), as: UTF8.self) }
        #expect(try json(.saved(changed: ["title"], key: RecordKey("id", 7))) == #"{"changed":["title"],"key":{"id":7},"outcome":"saved"}"#)
        #expect(try json(.unchanged) == #"{"outcome":"unchanged"}"#)
        #expect(try json(.notFound) == #"{"outcome":"notFound"}"#)
        #expect(try json(.invalid([FieldError(field: "title", code: "required", message: "Title is required"),
                                    FieldError(field: nil, code: "rule", message: "no")]))
                == #"{"errors":[{"code":"required","field":"title","message":"Title is required"},{"code":"rule","field":null,"message":"no"}],"outcome":"invalid"}"#)
        let day = ISO8601.parseDate("2026-12-01")!
        let conflict = SaveOutcome.conflict([FieldConflict(field: "due", base: .null, mine: .date(day), theirs: .data(Data([1])))])
        #expect(try json(conflict)
                == #"{"conflicts":[{"base":null,"field":"due","mine":"2026-12-01T00:00:00Z","theirs":{"$base64":"AQ=="}}],"outcome":"conflict"}"#)
        let decoder = JSONDecoder()
        for outcome: SaveOutcome in [.saved(changed: ["a"], key: RecordKey("id", 7)), .unchanged, .notFound,
                                     .invalid([FieldError(field: nil, code: "x", message: "y")]),
                                     .conflict([FieldConflict(field: "n", base: 1, mine: 2.5, theirs: .list(["a", .null]))])] {
            #expect(try decoder.decode(SaveOutcome.self, from: encoder.encode(outcome)) == outcome)
        }
        let bodyError = JSONBodyError(errors: [FieldError(field: "titel", code: "unknownField", message: "m")])
        #expect(String(decoding: try encoder.encode(bodyError), as: UTF8.self)
                == #"{"errors":[{"code":"unknownField","field":"titel","message":"m"}]}"#)
    }
}
