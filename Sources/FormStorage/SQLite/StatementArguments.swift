/// Values bound to a statement's parameters: by position (`?`), by name
/// (`:name`, `@name`, `$name`), or none.
///
/// ```swift
/// try conn.execute("INSERT INTO t(a, b) VALUES (?, ?)", [1, "one"])
/// try conn.execute("UPDATE t SET b = :b WHERE a = :a", ["a": 1, "b": nil])
/// ```
public struct StatementArguments: Sendable, Hashable {
    /// Values for `?` and `?NNN` parameters, in order.
    public var positional: [DatabaseValue]
    /// Values by parameter name, without its prefix character.
    public var named: [String: DatabaseValue]

    public init(_ positional: [DatabaseValue] = [], named: [String: DatabaseValue] = [:]) {
        self.positional = positional
        self.named = named
    }

    public init(_ values: [(any DatabaseValueConvertible)?]) {
        self.init(values.map { $0?.databaseValue ?? .null })
    }

    public var isEmpty: Bool { positional.isEmpty && named.isEmpty }
}

extension StatementArguments: ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        self.init(elements)
    }

    public init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        var named: [String: DatabaseValue] = [:]
        for (name, value) in elements { named[name] = value?.databaseValue ?? .null }
        self.init([], named: named)
    }
}
