/// A record key as JSON: `{"columns": [...], "values": [...]}` (drafts find records by it).
extension RecordKey: Codable {
    private enum Keys: String, CodingKey { case columns, values }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let columns = try c.decode([String].self, forKey: .columns)
        let values = try c.decode([FieldValue].self, forKey: .values)
        guard columns.count == values.count, !columns.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .values, in: c, debugDescription: "one value per key column")
        }
        self.init(columns: columns, values: values)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(columns, forKey: .columns)
        try c.encode(values, forKey: .values)
    }
}
