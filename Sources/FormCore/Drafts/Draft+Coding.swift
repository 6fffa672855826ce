public import FoundationEssentials

extension Draft {
    /// The draft as the JSON text both draft stores keep.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, enc in
            var c = enc.singleValueContainer()
            try c.encode(Int64((date.timeIntervalSince1970 * 1000).rounded()))
        }
        return try encoder.encode(self)
    }

    /// Reads a draft written by `encoded()`.
    public init(encoded data: Data) throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { dec in
            let milliseconds = try dec.singleValueContainer().decode(Int64.self)
            return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        }
        self = try decoder.decode(Draft.self, from: data)
    }
}
