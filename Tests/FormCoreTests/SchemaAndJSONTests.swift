import FormBasics
@testable import FormCore
import FormFoundation
import Foundation
import Testing

@Suite struct SchemaAndJSONTests {
    @Test func registrationExportsAsJSONSchema() throws {
        let data = JSONSchemaExporter.schema(for: try Fixtures.form("registration"))
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        #expect(schema["title"] as? String == "Registration")
        #expect(schema["type"] as? String == "object")
        // The password is required on input but writeOnly: a record as read (an export) never holds it.
        #expect(schema["required"] as? [String] == ["username", "street", "postalCode", "city", "acceptTerms"])
        let properties = try #require(schema["properties"] as? [String: [String: Any]])
        // `id` is the key, no field: an export writes it, so the schema has it.
        #expect(properties.keys.sorted() == ["acceptTerms", "city", "country", "id", "password", "postalCode", "street", "username"])
        #expect(properties["id"]?["readOnly"] as? Bool == true)
        #expect(properties["username"]?["minLength"] as? Int == 4)
        #expect(properties["username"]?["type"] as? String == "string")
        #expect(properties["password"]?["writeOnly"] as? Bool == true)
        let choices = try #require(properties["country"]?["enum"] as? [Any])
        #expect(choices.prefix(3).compactMap { $0 as? String } == ["usa", "de", "es"])
        #expect(choices.last is NSNull)   // not required: may be empty
        #expect(properties["country"]?["default"] as? String == "usa")
        // As SQLite stores it too: 0 or 1, another integer (read as yes), or a word.
        #expect(properties["acceptTerms"]?["type"] as? [String] == ["boolean", "integer", "string"])
        #expect(properties["acceptTerms"]?["maximum"] == nil)
    }

    @Test func kindsMapToSchemaTypesAndFormats() throws {
        let form = try Fixtures.form("signup")
        let schema = try #require(try JSONSerialization.jsonObject(with: JSONSchemaExporter.schema(for: form)) as? [String: Any])
        let properties = try #require(schema["properties"] as? [String: [String: Any]])
        // Empty text is a value in any column, and only that text: a number field's strings are "".
        // A REAL the column holds is exported as the number it is.
        #expect(properties["age"]?["type"] as? [String] == ["integer", "number", "string", "null"])
        #expect(properties["age"]?["pattern"] as? String == "^$")
        #expect(properties["age"]?["minimum"] as? Int == 0)
        #expect(properties["age"]?["maximum"] as? Int == 119)
        #expect(properties["email"]?["format"] as? String == "email")
    }

    @Test func conditionalFieldsAreNotRequiredAndDatesHaveTheDoorsPattern() throws {
        var form = Form(name: "ticket", sections: [Section(fields: [
            Field(key: "kind", kind: .choice).choices(["bug", "idea"]).required(),
            Field(key: "severity", kind: .integer).required().hidden(when: .notEquals("kind", "bug")),
            Field(key: "due", kind: .datetime),
        ])])
        form.primaryKey = ["id"]
        let schema = try #require(try JSONSerialization.jsonObject(with: JSONSchemaExporter.schema(for: form)) as? [String: Any])
        #expect(schema["required"] as? [String] == ["kind"])
        let properties = try #require(schema["properties"] as? [String: [String: Any]])
        #expect(properties["id"]?["readOnly"] as? Bool == true)
        // Text, or a number where the column keeps Unix time or Julian days.
        #expect(properties["due"]?["type"] as? [String] == ["string", "number", "null"])
        #expect(properties["due"]?["format"] == nil)
        let pattern = try #require(properties["due"]?["pattern"] as? String)
        let regex = try NSRegularExpression(pattern: pattern)
        for text in ["2026-12-01", "2026-12-01 09:30:00", "2026-12-01T09:30:00.250Z", "2026-12-01T09:30+01:00", "09:30:15"] {
            #expect(regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil, "\(text)")
            #expect(ISO8601.parse(text) != nil, "\(text): the door reads what the schema allows")
        }
        for text in ["12/01/2026", "2026-12-01T", "tomorrow"] {
            #expect(regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil, "\(text)")
        }
    }
}
