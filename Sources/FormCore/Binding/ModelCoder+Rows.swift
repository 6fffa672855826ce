/// Arrays of structs decoded back from a repeating group's rows, the inverse
/// of `ModelCoder.encodeRows`: a model with `var lines: [Line]` round-trips
/// through a form whose group is bound to `\.lines`.
extension ModelCoder {
    /// A model from values by (dotted) coding key and, for each array of
    /// structs, its rows (each a row of values by the element's coding keys).
    ///
    /// ```swift
    /// let order = try ModelCoder.decode(Order.self, from: values, rows: ["lines": [["product": "Tea", "quantity": 1]]])
    /// ```
    /// - throws: `DecodingError` naming the key (`lines[1].quantity`) that is missing or has the wrong type.
    public static func decode<Model: Decodable>(_ type: Model.Type, from values: [String: FieldValue],
                                               rows: [String: [[String: FieldValue]]]) throws -> Model {
        try ValueDecoder(values: RecordValues(values), path: "", codingPath: [], rows: rows).unbox(type)
    }

    /// A model from a record's values laid out by slot (a session's), each
    /// coding key read from its slot through the layout, and its rows.
    public static func decode<Model: Decodable>(_ type: Model.Type, from values: RecordValues,
                                               rows: [String: [[String: FieldValue]]] = [:]) throws -> Model {
        try ValueDecoder(values: values, path: "", codingPath: [], rows: rows).unbox(type)
    }
}

/// The rows of an array of structs, one element each.
struct RowsDecoder: UnkeyedDecodingContainer {
    let rows: [[String: FieldValue]]
    let codingPath: [any CodingKey]
    var currentIndex = 0
    var count: Int? { rows.count }
    var isAtEnd: Bool { currentIndex >= rows.count }

    init(rows: [[String: FieldValue]], codingPath: [any CodingKey]) {
        self.rows = rows
        self.codingPath = codingPath
    }

    private mutating func next() throws -> ValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound([String: FieldValue].self,
                                              .init(codingPath: codingPath, debugDescription: "the rows have ended"))
        }
        defer { currentIndex += 1 }
        return ValueDecoder(values: RecordValues(rows[currentIndex]), path: "", codingPath: codingPath + [AnyCodingKey(intValue: currentIndex)])
    }

    mutating func decodeNil() throws -> Bool { false }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().unbox(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}
