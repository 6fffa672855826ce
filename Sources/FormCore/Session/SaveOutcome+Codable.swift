/// A save's outcome as JSON, the shape `formstore set|new --format json`
/// prints too (docs/service.md):
///
/// ```json
/// {"outcome": "saved", "changed": ["title"], "key": {"id": 7}}
/// {"outcome": "unchanged"}
/// {"outcome": "invalid", "errors": [{"field": "title", "code": "required", "message": "…"}]}
/// {"outcome": "conflict", "conflicts": [{"field": "title", "base": "a", "mine": "b", "theirs": "c"}]}
/// {"outcome": "notFound"}
/// ```
///
/// Values are plain JSON (`PlainJSONValue`); a key is an object of its columns.
extension SaveOutcome: Codable {
    private enum Keys: String, CodingKey { case outcome, changed, key, errors, conflicts }

    /// The `outcome` member: also a service's switch, so a stable name per case.
    public var name: String {
        switch self {
        case .saved: return "saved"
        case .unchanged: return "unchanged"
        case .invalid: return "invalid"
        case .conflict: return "conflict"
        case .notFound: return "notFound"
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        switch try c.decode(String.self, forKey: .outcome) {
        case "saved":
            let columns = try c.decode([String: PlainJSONValue].self, forKey: .key)
            let names = columns.keys.sorted()
            self = .saved(changed: try c.decode([String].self, forKey: .changed),
                          key: RecordKey(columns: names, values: names.map { columns[$0]!.value }))
        case "unchanged": self = .unchanged
        case "invalid": self = .invalid(try c.decode([FieldError].self, forKey: .errors))
        case "conflict": self = .conflict(try c.decode([FieldConflict].self, forKey: .conflicts))
        case "notFound": self = .notFound
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .outcome, in: c, debugDescription: "unknown outcome \"\(other)\"")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(name, forKey: .outcome)
        switch self {
        case .saved(let changed, let key):
            try c.encode(changed, forKey: .changed)
            let columns = Dictionary(zip(key.columns, key.values.map(PlainJSONValue.init)), uniquingKeysWith: { a, _ in a })
            try c.encode(columns, forKey: .key)
        case .invalid(let errors): try c.encode(errors, forKey: .errors)
        case .conflict(let conflicts): try c.encode(conflicts, forKey: .conflicts)
        case .unchanged, .notFound: break
        }
    }
}

/// A conflict as JSON: `{"field": "title", "base": …, "mine": …, "theirs": …}`,
/// each value plain JSON.
extension FieldConflict: Codable {
    private enum Keys: String, CodingKey { case field, base, mine, theirs }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(field: try c.decode(String.self, forKey: .field),
                  base: try c.decode(PlainJSONValue.self, forKey: .base).value,
                  mine: try c.decode(PlainJSONValue.self, forKey: .mine).value,
                  theirs: try c.decode(PlainJSONValue.self, forKey: .theirs).value)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(field, forKey: .field)
        try c.encode(PlainJSONValue(shown(base)), forKey: .base)
        try c.encode(PlainJSONValue(shown(mine)), forKey: .mine)
        try c.encode(PlainJSONValue(shown(theirs)), forKey: .theirs)
    }
}
