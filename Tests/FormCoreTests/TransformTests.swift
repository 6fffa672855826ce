import Foundation
import Testing
@testable import FormCore

@Suite struct TransformTests {
    /// One row: a field, what a person types, the model value, and how it is shown again.
    struct RoundTrip: Sendable, CustomTestStringConvertible {
        let field: Field
        let input: String
        let model: FieldValue
        let shown: String
        var testDescription: String { "\(field.kind.rawValue): \(input)" }
    }

    static let countries = Field(key: "country", kind: .choice).choices([
        (value: "usa", label: "United States"), (value: "de", label: "Germany"), (value: "es", label: "Spain"),
    ])
    static let foods = Field(key: "foods", kind: .multichoice).choices([
        (value: "p", label: "Pizza"), (value: "s", label: "Sushi"),
    ])

    static let roundTrips: [RoundTrip] = [
        RoundTrip(field: Field(key: "t"), input: "  Ada  ", model: "Ada", shown: "Ada"),
        // A no-break space and an ideographic space are trimmed like a space; a tab and a line break too.
        RoundTrip(field: Field(key: "t"), input: "\u{00A0}Ada\u{3000}", model: "Ada", shown: "Ada"),
        RoundTrip(field: Field(key: "t"), input: "\tAda\r\n", model: "Ada", shown: "Ada"),
        RoundTrip(field: Field(key: "n", kind: .name), input: " Ada Lovelace ", model: "Ada Lovelace", shown: "Ada Lovelace"),
        RoundTrip(field: Field(key: "a", kind: .address), input: "1 Main St ", model: "1 Main St", shown: "1 Main St"),
        RoundTrip(field: Field(key: "e", kind: .email), input: " Ada@Example.COM ", model: "ada@example.com", shown: "ada@example.com"),
        RoundTrip(field: Field(key: "p", kind: .phone), input: "555.123.4567", model: "5551234567", shown: "(555) 123-4567"),
        RoundTrip(field: Field(key: "p", kind: .phone), input: "(555) 123-4567", model: "5551234567", shown: "(555) 123-4567"),
        RoundTrip(field: Field(key: "u", kind: .url), input: " https://x.org ", model: "https://x.org", shown: "https://x.org"),
        RoundTrip(field: Field(key: "s", kind: .state), input: " ca ", model: "CA", shown: "CA"),
        RoundTrip(field: Field(key: "z", kind: .zip), input: " 02139 ", model: "02139", shown: "02139"),
        RoundTrip(field: Field(key: "i", kind: .integer), input: " -42 ", model: .int(-42), shown: "-42"),
        RoundTrip(field: Field(key: "i", kind: .integer), input: "+7", model: .int(7), shown: "7"),
        RoundTrip(field: Field(key: "i", kind: .integer), input: "5.0", model: .int(5), shown: "5"),
        RoundTrip(field: Field(key: "i", kind: .integer), input: "1e3", model: .int(1000), shown: "1000"),
        RoundTrip(field: Field(key: "d", kind: .decimal), input: "2.50", model: .double(2.5), shown: "2.5"),
        RoundTrip(field: Field(key: "d", kind: .decimal), input: "3", model: .double(3), shown: "3"),
        // However written, a number a double holds exactly is taken.
        RoundTrip(field: Field(key: "d", kind: .decimal), input: "007.50", model: .double(7.5), shown: "7.5"),
        RoundTrip(field: Field(key: "d", kind: .decimal), input: "1E+3", model: .double(1000), shown: "1000"),
        RoundTrip(field: Field(key: "d", kind: .decimal), input: "-0.0000125", model: .double(-0.0000125), shown: "-0.0000125"),
        RoundTrip(field: Field(key: "d", kind: .decimal), input: "3.141592653589793", model: .double(Double.pi), shown: "3.141592653589793"),
        RoundTrip(field: Field(key: "d", kind: .date), input: "12/31/1999", model: .date(date("1999-12-31")), shown: "12/31/1999"),
        RoundTrip(field: Field(key: "d", kind: .date).format("yyyy-MM-dd"), input: "1999-12-31",
                  model: .date(date("1999-12-31")), shown: "1999-12-31"),
        // Times are shown with their seconds; typed without them, they are :00.
        RoundTrip(field: Field(key: "t", kind: .time), input: "13:45", model: .date(Date(timeIntervalSince1970: 13 * 3600 + 45 * 60)), shown: "13:45:00"),
        RoundTrip(field: Field(key: "t", kind: .time), input: "13:45:07", model: .date(Date(timeIntervalSince1970: 13 * 3600 + 45 * 60 + 7)), shown: "13:45:07"),
        RoundTrip(field: Field(key: "t", kind: .datetime), input: "1999-12-31 23:59",
                  model: .date(date("1999-12-31").addingTimeInterval(23 * 3600 + 59 * 60)), shown: "1999-12-31 23:59:00"),
        RoundTrip(field: Field(key: "t", kind: .datetime), input: "2024-03-01 12:34:57",
                  model: .date(date("2024-03-01").addingTimeInterval(12 * 3600 + 34 * 60 + 57)), shown: "2024-03-01 12:34:57"),
        RoundTrip(field: Field(key: "b", kind: .bool), input: "Yes", model: true, shown: "yes"),
        RoundTrip(field: Field(key: "b", kind: .bool), input: "off", model: false, shown: "no"),
        RoundTrip(field: countries, input: "de", model: "de", shown: "Germany"),
        RoundTrip(field: countries, input: "spain", model: "es", shown: "Spain"),
        RoundTrip(field: countries, input: "United States", model: "usa", shown: "United States"),
        RoundTrip(field: foods, input: "pizza, s", model: .list(["p", "s"]), shown: "Pizza, Sushi"),
        RoundTrip(field: Field(key: "pw", kind: .password), input: " se cret ", model: " se cret ", shown: " se cret "),
        RoundTrip(field: Field(key: "zip").transform(.removeSpaces), input: "12 345", model: "12345", shown: "12345"),
        RoundTrip(field: Field(key: "code").transform(.uppercase, .maxLength(3)), input: "abcdef", model: "ABC", shown: "ABC"),
        RoundTrip(field: Field(key: "code").transform(.lowercase), input: "ABC", model: "abc", shown: "abc"),
        RoundTrip(field: Field(key: "digits").transform(.digitsOnly), input: "a1b2c3", model: "123", shown: "123"),
    ]

    @Test(arguments: roundTrips)
    func parsesAndFormatsBothWays(_ row: RoundTrip) {
        #expect(row.field.parse(row.input) == .success(row.model))
        #expect(row.field.format(row.model) == row.shown)
        #expect(row.field.parse(row.shown) == .success(row.model))
    }

    struct Rejection: Sendable, CustomTestStringConvertible {
        let field: Field
        let input: String
        let code: String
        let message: String
        var testDescription: String { "\(field.kind.rawValue): \(input)" }
    }

    static let rejections: [Rejection] = [
        Rejection(field: Field(key: "age", label: "Age", kind: .integer), input: "forty", code: "number", message: "Age is not a number"),
        Rejection(field: Field(key: "age", label: "Age", kind: .integer), input: "4.5", code: "number", message: "Age must be a whole number"),
        Rejection(field: Field(key: "age", label: "Age", kind: .integer), input: "99999999999999999999", code: "number",
                  message: "Age must be between -9223372036854775808 and 9223372036854775807"),
        Rejection(field: Field(key: "w", label: "Weight", kind: .decimal), input: "1,5", code: "number", message: "Weight is not a number"),
        Rejection(field: Field(key: "w", label: "Weight", kind: .decimal), input: "nan", code: "number", message: "Weight is not a number"),
        // What a double would silently make another number.
        Rejection(field: Field(key: "w", label: "Weight", kind: .decimal), input: "1e-400", code: "number",
                  message: "Weight is too close to 0 to be stored (it would be 0)"),
        Rejection(field: Field(key: "w", label: "Weight", kind: .decimal), input: "12345678901234567890", code: "number",
                  message: "Weight has more digits than a number can hold exactly"),
        Rejection(field: Field(key: "w", label: "Weight", kind: .decimal), input: "0.30000000000000000001", code: "number",
                  message: "Weight has more digits than a number can hold exactly"),
        Rejection(field: Field(key: "w", label: "Weight", kind: .decimal), input: "12345678901234567890.1234567891", code: "number",
                  message: "Weight has more digits than a number can hold exactly"),
        Rejection(field: Field(key: "p", label: "Phone", kind: .phone), input: "555-1234", code: "phone", message: "Phone is not a valid phone number"),
        Rejection(field: Field(key: "p", label: "Phone", kind: .phone), input: "555-123-4567x", code: "phone", message: "Phone is not a valid phone number"),
        Rejection(field: Field(key: "d", label: "Birthdate", kind: .date), input: "31/12/1999", code: "date", message: "Birthdate is not a valid date"),
        Rejection(field: Field(key: "d", label: "Birthdate", kind: .date), input: "yesterday", code: "date", message: "Birthdate is not a valid date"),
        // A time's and a date-time's say what they are (the code stays `date`).
        Rejection(field: Field(key: "t", label: "Opens", kind: .time), input: "25:00", code: "date", message: "Opens is not a valid time"),
        Rejection(field: Field(key: "s", label: "Starts", kind: .datetime), input: "soon", code: "date",
                  message: "Starts is not a valid date and time"),
        Rejection(field: Field(key: "b", label: "Newsletter", kind: .bool), input: "maybe", code: "bool", message: "Newsletter must be yes or no"),
        Rejection(field: countries.with { $0.label = "Country" }, input: "France", code: "choice", message: "\"France\" is not one of the choices for Country"),
        Rejection(field: countries.with { $0.label = "Country" }, input: "4", code: "choice", message: "\"4\" is not one of the choices for Country"),
        // A choice is never named by its position.
        Rejection(field: countries.with { $0.label = "Country" }, input: "1", code: "choice", message: "\"1\" is not one of the choices for Country"),
        Rejection(field: foods.with { $0.label = "Foods" }, input: "pizza, 2", code: "choice", message: "\"2\" is not one of the choices for Foods"),
    ]

    @Test(arguments: rejections)
    func rejectsBadInputWithItsMessage(_ row: Rejection) {
        #expect(row.field.parse(row.input) == .failure(FieldError(field: row.field.key, code: row.code, message: row.message)))
    }

    @Test func emptyInputIsNullForTypedKinds() {
        for kind in [FieldKind.integer, .decimal, .date, .time, .datetime, .bool, .choice, .multichoice] {
            #expect(Field(key: "x", kind: kind).parse("  ") == .success(.null), "\(kind)")
        }
        #expect(Field(key: "x").parse("  ") == .success(.text("")))
        #expect(Field(key: "x", kind: .integer).format(.null) == "")
    }

    /// Found by Scripts/fuzz.sh: Foundation's DateFormatter trapped on a digit with a combining mark.
    @Test func dateTextWithCombiningMarksIsRefusedNotACrash() {
        for kind in [FieldKind.date, .time, .datetime] {
            for input in ["1\u{05BF}", "01/01/1990\u{0301}", "12:3\u{0301}0"] {
                guard case .failure(let error) = Field(key: "x", kind: kind).parse(input) else {
                    Issue.record("\(kind) accepted \(input.debugDescription)")
                    continue
                }
                #expect(error.code == "date")
            }
        }
    }

    @Test func stepsParseFirstToLastAndFormatLastToFirst() {
        // digitsOnly then phone would accept letters in between; phone alone refuses them.
        let field = Field(key: "p", kind: .phone)
        #expect(field.allTransforms == [.phone])
        let lenient = Field(key: "p", kind: .text).transform(.digitsOnly, .phone)
        #expect(lenient.parse("tel 555 123 4567") == .success(.text("5551234567")))
        #expect(lenient.format(.text("5551234567")) == "(555) 123-4567")
        #expect(FieldKind.date.defaultTransforms(format: "yyyy") == [.date(format: "yyyy")])
        #expect(FieldKind.email.defaultTransforms() == [.trim, .lowercase])
        #expect(FieldKind.multichoice.defaultTransforms() == [.list, .choiceLabel])
    }

    @Test func customTransformsRunInTheChainAndTheirErrorsNameTheField() {
        let cents = CustomTransform(name: "cents", parse: { value in
            guard let d = value.doubleValue else { throw FieldError(field: nil, code: "cents", message: "{label} needs an amount") }
            return .int(Int64((d * 100).rounded()))
        }, format: { value in
            value.intValue.map { .double(Double($0) / 100) } ?? value
        })
        let price = Field(key: "price", label: "Price", kind: .decimal).transform(.custom(cents))
        #expect(price.parse("12.34") == .success(.int(1234)))
        #expect(price.format(.int(1234)) == "12.34")
        #expect(price.parse("") == .failure(FieldError(field: "price", code: "cents", message: "Price needs an amount")))
    }

    @Test func formOverridesReachParseErrors() throws {
        let form = Form("f") { Section { Field("Age", key: "age", kind: .integer) } }
            .message("number", "{label}: digits only, please", kind: .integer)
        let age = try #require(form.field("age"))
        #expect(age.parse("x", in: form) == .failure(FieldError(field: "age", code: "number", message: "Age: digits only, please")))
    }
}

/// A decimal is shown with its shortest digits and no exponent where a
/// person would read one as a word (`1e-10` of a `numeric(30,10)`).
@Suite struct DecimalTextTests {
    @Test(arguments: [
        (1e-10, "0.0000000001"), (1.25e-7, "0.000000125"), (-2.5e-5, "-0.000025"), (0.1, "0.1"),
        (1e16, "10000000000000000"), (1.2345e17, "123450000000000000"), (2.5, "2.5"), (3, "3"), (1e-30, "1e-30"),
    ])
    func shortestDigitsWithoutAnExponent(_ number: Double, _ text: String) {
        #expect(Transform.decimalText(number) == text)
        #expect(Double(Transform.decimalText(number)) == number)
    }
}
