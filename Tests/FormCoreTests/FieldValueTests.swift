import Testing
@testable import FormCore

@Suite struct FieldValueTests {
    @Test func emptinessMatchesWhatRequiredRejects() {
        #expect(FieldValue.null.isEmpty)
        #expect(FieldValue.text("").isEmpty)
        #expect(FieldValue.list([]).isEmpty)
        #expect(!FieldValue.int(0).isEmpty)
        #expect(!FieldValue.bool(false).isEmpty)
    }

    @Test func compositeKeyIsWrittenColumnEqualsValue() {
        let key = RecordKey(columns: ["a", "b"], values: [.int(1), .text("x")])
        #expect(key.description == "a=1,b=x")
        #expect(RecordKey("id", 3).description == "3")
    }
}
