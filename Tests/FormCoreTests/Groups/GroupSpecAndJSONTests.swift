import Foundation
import Testing
@testable import FormCore

/// Groups in specs, and the JSON door's child arrays.
@Suite struct GroupSpecAndJSONTests {
    @Test func aSpecWithAGroupReadsBackAsTheDSLForm() throws {
        let form = GroupSessionTests.invoiceForm()
        let spec = try FormSpec.encode(form)
        let text = String(decoding: spec, as: UTF8.self)
        #expect(text.contains("\"orderColumn\" : \"position\"") || text.contains("\"orderColumn\": \"position\""))
        #expect(try FormSpec.decode(spec) == form)
    }

    @Test func aSpecsGroupMistakeNamesItsPath() {
        let spec = #"""
            {"formstore": 1, "name": "invoice", "sections": [
              {"fields": [{"key": "total", "kind": "decimal"}]},
              {"fields": [{"key": "amount", "kind": "decimal"}],
               "group": {"key": "lines", "sums": [{"column": "amount", "field": "totl"}], "ordr": "x"}}]}
            """#
        #expect(throws: SpecError.self) { try FormSpec.decode(Data(spec.utf8)) }
        do {
            _ = try FormSpec.decode(Data(spec.utf8))
        } catch {
            #expect(error.description.contains("$.sections[1].group"))
        }
    }

    @Test func aDocumentStatesTheWholeGroup() throws {
        let (backend, session) = try GroupSessionTests.stored()
        try session.apply(json: Data(#"""
            {"total": 4.5, "lines": [{"item": "Jam", "amount": 1.5}, {"id": 10, "amount": 3}]}
            """#.utf8))
        #expect(try session.save() == .saved(changed: ["total", "lines"], key: RecordKey("id", 1)))
        let stored = GroupSessionTests.storedLines(backend)
        #expect(stored.map { $0["item"] } == ["Jam", "Tea"])
        #expect(stored.map { $0["amount"] } == [1.5, 3.0])
    }

    @Test func aDocumentWithoutTheGroupLeavesItAlone() throws {
        let (_, session) = try GroupSessionTests.stored()
        try session.apply(json: Data(#"{"customer": "Bo"}"#.utf8))
        #expect(session.dirtyFields == ["customer"])
        #expect(session.dirtyGroups.isEmpty)
    }

    @Test func theSameRowsAgainChangeNothing() throws {
        let (_, session) = try GroupSessionTests.stored()
        try session.apply(json: Data(#"{"lines": [{"id": 10, "item": "Tea", "amount": 2.5}, {"id": 11, "item": "Cake", "amount": 3}]}"#.utf8))
        #expect(!session.isDirty)
    }

    @Test func badRowsAreAllReportedAndNothingChanges() throws {
        let (_, session) = try GroupSessionTests.stored()
        do {
            try session.apply(json: Data(#"{"lines": [{"amount": "lots"}, 7, {"colour": "red"}]}"#.utf8))
            Issue.record("expected the document to be refused")
        } catch {
            #expect(error.errors.map(\.field) == ["lines[#1].amount", "lines[#2]", "lines[#3].colour"])
        }
        #expect(!session.isDirty)
    }
}
