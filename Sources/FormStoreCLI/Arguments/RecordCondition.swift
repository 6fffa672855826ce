/// One `--where` condition as typed: `FIELD OP VALUE`, `FIELD is null` or
/// `FIELD is not null`.
///
/// | typed | matches records whose FIELD |
/// | --- | --- |
/// | `age>=30` (also `=`, `!=`, `<`, `<=`, `>`) | compares so with VALUE, parsed as if typed into the field |
/// | `name~ann` | contains `ann` (ASCII letters in any case) |
/// | `company=` | is NULL or empty text |
/// | `company is null`, `company is not null` | is NULL, is not NULL |
///
/// The field is the text before the first operator character (`=`, `!`,
/// `<`, `>`, `~`), so a value may hold any of them (`note=a=b`); a field
/// whose name holds one is typed with a backslash before it (`x\>y>3`,
/// `TypedName`).
struct RecordCondition: Sendable, Hashable {
    enum Operator: String, Sendable, Hashable, CaseIterable {
        case equal = "=", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        case contains = "~"
    }

    enum Test: Sendable, Hashable {
        case compare(Operator, String)
        case isNull
        case isNotNull
    }

    var field: String
    var test: Test

    init(field: String, test: Test) {
        self.field = field
        self.test = test
    }

    /// - throws: `CLIError.usage` for text that is no condition.
    init(parsing text: String) throws {
        let lowered = text.lowercased()
        for (suffix, test) in [(" is not null", Test.isNotNull), (" is null", Test.isNull)] where lowered.hasSuffix(suffix) {
            let field = TypedName.unescape(text.dropLast(suffix.count)).trimmingSpaces
            guard !field.isEmpty else { break }
            self.init(field: field, test: test)
            return
        }
        guard let (name, rest) = TypedName.split(text, at: ["=", "!", "<", ">", "~"]), !name.isEmpty else {
            throw CLIError.usage("Expected FIELD=VALUE (or !=, <, <=, >, >=, ~, 'is null', 'is not null'), got '\(text)'")
        }
        guard let op = Operator.allCases.sorted(by: { $0.rawValue.count > $1.rawValue.count })
                .first(where: { rest.hasPrefix($0.rawValue) }) else {
            throw CLIError.usage("Unknown operator in '\(text)': use =, !=, <, <=, >, >= or ~")
        }
        self.init(field: name.trimmingSpaces, test: .compare(op, String(rest.dropFirst(op.rawValue.count))))
    }
}

extension String {
    /// Without spaces at either end (a field name typed as `age >= 30`).
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
