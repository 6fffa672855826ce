import FormCore

/// `FIELD=VALUE` or `FIELD:=JSON` as given on the command line, split on the
/// first `=` (so the value may itself contain `=`); a field whose name holds
/// `=` is typed with a backslash before it (`a\=b=1`, `TypedName`), and one
/// whose name ends in `:` with one before that (`a\:=8`).
///
/// `:=` takes one JSON value: `note:=null` stores NULL, `note:=""` empty text,
/// `qty:=3`, `active:=true` and `name:="x"` the same as `qty=3`, `active=true`
/// and `name=x`, except that in a column of no type a string stays text and
/// a number a number (`code:="81"`, `code:=81`), where `code=81` is a number
/// unless the row holds text there.
struct Assignment: Sendable, Hashable {
    var field: String
    var input: FieldInput
    /// Given with `:=`: taken as it is, never read from a file (`FieldInput.readingFiles`).
    var isJSON = false

    /// The value as text (NULL and empty text both as "").
    var value: String { input.text }

    init(field: String, value: String) {
        self.field = field
        self.input = .typed(value)
    }

    init(field: String, input: FieldInput) {
        self.field = field
        self.input = input
    }

    /// - throws: `CLIError.usage` when there is no `=`, no field name, or
    ///   what follows `:=` is not one JSON value.
    init(parsing text: String) throws {
        // `:=3` names no field (it was "no field ':'").
        guard let (name, equals) = TypedName.split(text, at: ["="]), !name.isEmpty, name != ":" else {
            throw CLIError.usage("Expected FIELD=VALUE or FIELD:=JSON, got '\(text)'")
        }
        let rest = String(equals.dropFirst())
        // `:=` only where the colon is typed bare: `a\:=8` sets the field named `a:` to the text 8.
        let typedName = text[..<equals.startIndex]
        let colonEscaped = typedName.dropLast().reversed().prefix { $0 == "\\" }.count % 2 == 1
        guard name.hasSuffix(":"), name.count > 1, !colonEscaped else {
            field = String(name)
            input = .typed(rest)
            return
        }
        field = String(name.dropLast())
        isJSON = true
        do {
            var reader = JSONRecord.reader(Array(rest.utf8))
            reader.skipSpace()
            let (node, text) = try reader.valueAndText()
            reader.skipSpace()
            guard reader.isAtEnd else { throw reader.failure("unexpected text after the value") }
            // A document is kept as it was typed, less the space between its tokens (`1.50` stays).
            guard let value = JSONNode.Member(key: field, value: node, text: text).fieldValue else {
                throw CLIError.usage("'\(field):=': $base64 is not valid base64")
            }
            // A number's text as written, where its value may not give it back (`12.50`).
            let written: String? = if case .number = node { text } else { nil }
            input = FieldInput(json: value, written: written)
        } catch let error as CLIError {
            throw error
        } catch let error as JSONSyntaxError where error.reason.hasPrefix("integer out of range") {
            // Valid JSON, past what an integer holds: said so, not "not JSON".
            throw CLIError.usage("'\(field):=' \(error.message) (integers run from -9223372036854775808 to 9223372036854775807)")
        } catch let error as JSONSyntaxError where error.reason == "number out of range" {
            // As `--json` says it: past what a double holds (JSON has no Infinity).
            throw CLIError.usage("'\(field):=' \(error.message) (numbers run to ±1.7976931348623157e308)")
        } catch let error as JSONSyntaxError where error.reason == "number not exact" {
            throw CLIError.usage("'\(field):=' has \(error.message)")
        } catch {
            // What was typed is not echoed: the field may be a secure one (a password).
            throw CLIError.usage("'\(field):=' takes one JSON value such as null, 3, true or \"text\", and what follows is not one")
        }
    }
}

extension FieldInput {
    /// A JSON value as given after `:=`: `null`, `""`, bytes and a list are
    /// themselves, a string or a number (or an object, as its JSON text) is
    /// JSON (`.json`), a bool the text a person would type for it (`true`).
    /// - parameter written: a number's text as written, when it may differ from its value's.
    init(json value: FieldValue, written: String? = nil) {
        switch value {
        case .null: self = .null
        case .text(""): self = .emptyText
        case .text: self = .json(value)
        case .int, .double: self = .json(value, written: written)
        case .data(let bytes): self = .bytes(bytes)
        case .list(let values): self = .list(values, json: value.jsonLiteral)
        default: self = .typed(ValueText.text(value, kind: nil, blobsBySize: false))
        }
    }
}

extension Array where Element == Assignment {
    /// The assignments as field → input; a field given twice is a usage error.
    func byField() throws -> [String: FieldInput] {
        var result: [String: FieldInput] = [:]
        for a in self {
            guard result.updateValue(a.input, forKey: a.field) == nil else {
                throw CLIError.usage("Field '\(a.field)' is given more than once")
            }
        }
        return result
    }
}
