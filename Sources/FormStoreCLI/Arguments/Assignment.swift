/// `FIELD=VALUE` as given on the command line, split on the first `=` (so the
/// value may itself contain `=`).
struct Assignment: Sendable, Hashable {
    var field: String
    var value: String

    init(field: String, value: String) {
        self.field = field
        self.value = value
    }

    /// - throws: `CLIError.usage` when there is no `=` or no field name.
    init(parsing text: String) throws {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw CLIError.usage("Expected FIELD=VALUE, got '\(text)'")
        }
        field = String(text[..<equals])
        value = String(text[text.index(after: equals)...])
    }
}

extension Array where Element == Assignment {
    /// The assignments as field → value; a field given twice is a usage error.
    func byField() throws -> [String: String] {
        var result: [String: String] = [:]
        for a in self {
            guard result.updateValue(a.value, forKey: a.field) == nil else {
                throw CLIError.usage("Field '\(a.field)' is given more than once")
            }
        }
        return result
    }
}
