/// The values given to one command, already checked against its
/// configuration; commands read them back by name in `init(parsing:)`.
struct ParsedArguments: Sendable, Equatable {
    /// Option values in the order given, and positional arguments, by name.
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    init(values: [String: [String]] = [:], flags: Set<String> = []) {
        self.values = values
        self.flags = flags
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// An option's value (the last, when given more than once) or an optional argument.
    func value(_ name: String) -> String? { values[name]?.last }

    /// A repeated option's values or a variadic argument's, in order.
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// A required positional argument.
    func argument(_ name: String) throws -> String {
        guard let value = value(name) else { throw CLIError.usage("Missing expected argument '<\(name)>'") }
        return value
    }

    func positiveInteger(_ name: String) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let n = Int(text), n > 0 else {
            throw CLIError.usage("The value '\(text)' is invalid for '--\(name)': expected a positive whole number.")
        }
        return n
    }

    /// A `oneOf` option's value as an enum.
    func choice<Value: RawRepresentable>(_ name: String, default defaultValue: Value) throws -> Value
    where Value.RawValue == String {
        guard let text = value(name) else { return defaultValue }
        guard let value = Value(rawValue: text) else {
            throw CLIError.usage("The value '\(text)' is invalid for '--\(name)'")
        }
        return value
    }

    func assignments(_ name: String) throws -> [Assignment] {
        try all(name).map(Assignment.init(parsing:))
    }

    func key(_ name: String) throws -> KeyArgument {
        try KeyArgument(parsing: argument(name))
    }
}
