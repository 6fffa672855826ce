import Foundation
import Testing
@testable import FormCore

/// `decode(encode(form)) == form` for every spec-representable form; what a
/// spec cannot hold is refused by name, never dropped.
@Suite struct SpecRoundTripTests {
    static var fixtureNames: [String] {
        get throws {
            try FileManager.default.contentsOfDirectory(atPath: Fixtures.root.appendingPathComponent("forms").path)
                .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
        }
    }

    @Test(arguments: try fixtureNames)
    func everyFixtureReadsBackEqual(name: String) throws {
        let form = try Fixtures.form(name)
        #expect(FormSpec.unwritableParts(of: form).isEmpty)
        #expect(try FormSpec.decode(FormSpec.encode(form)) == form)
    }

    @Test func customRulesAndTransformsAreReportedNotDropped() throws {
        var form = Form(name: "stock", sections: [Section(fields: [
            Field(key: "sku").custom("checksum") { _ in true }
                .transform(.custom(CustomTransform(name: "upper", parse: { $0 }, format: { $0 }))),
        ])])
        form.rules = [.custom(CustomFormRule(code: "stockLimit", field: nil) { _ in true })]
        let parts = FormSpec.unwritableParts(of: form)
        #expect(parts.map(\.description) == [
            #"$.sections[0].fields[0].rules (field "sku"): the custom rule "checksum" is code; a spec cannot hold it"#,
            #"$.sections[0].fields[0].transforms (field "sku"): the custom transform "upper" is code; a spec cannot hold it"#,
            #"$.rules[0]: the custom rule "stockLimit" is code; a spec cannot hold it"#,
        ])
        #expect(throws: parts[0]) { try FormSpec.encode(form) }
    }
}

extension SpecRoundTripTests {
    /// An inferred form written out as a spec keeps its NOT NULL columns as
    /// `notNull`, not `required` (which would refuse '' and an unticked switch).
    @Test func notNullReadsBackAsNotNull() throws {
        var code = Field(key: "code")
        code.isNotNull = true
        let form = Form(name: "codes", sections: [Section(fields: [code])])
        let spec = try FormSpec.encode(form)
        let text = String(decoding: spec, as: UTF8.self)
        #expect(text.contains(#""notNull": true"#), "\(text)")
        #expect(!text.contains("required"), "\(text)")
        let read = try FormSpec.decode(spec)
        #expect(read == form)
        #expect(read.field("code")?.isNotNull == true && read.field("code")?.isRequired == false)
    }
}
