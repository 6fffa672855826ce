import FormBasics
import FoundationEssentials

/// A lossless JSON form (drafts, settings): each value keeps its type
/// (`{"int": 5}`, `{"date": "2026-01-02T03:04:05.000Z"}`, `null` ...), so a
/// restored draft compares equal to the values it was made from. A date
/// finer than the millisecond its text keeps (a stored `…05.123456`) is
/// the seconds since 1970 it is (`{"instant": 1767323045.123456}`); a
/// double JSON cannot hold is named (`{"double": "Infinity"}`, `"NaN"`).
extension FieldValue: Codable {
    private enum Tag: String, CodingKey {
        case bool, int, double, text, date, instant, list, data
    }

    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), single.decodeNil() {
            self = .null
            return
        }
        let c = try decoder.container(keyedBy: Tag.self)
        guard let tag = c.allKeys.first, c.allKeys.count == 1 else {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath,
                                                   debugDescription: "a value needs exactly one type tag"))
        }
        switch tag {
        case .bool: self = .bool(try c.decode(Bool.self, forKey: tag))
        case .int: self = .int(try c.decode(Int64.self, forKey: tag))
        case .double:
            if let name = try? c.decode(String.self, forKey: tag), let value = ValueBytes.nonFiniteDouble(named: name) {
                self = .double(value)
            } else {
                self = .double(try c.decode(Double.self, forKey: tag))
            }
        case .text: self = .text(try c.decode(String.self, forKey: tag))
        case .date:
            let text = try c.decode(String.self, forKey: tag)
            guard let date = ISO8601.parse(text) else {
                throw DecodingError.dataCorruptedError(forKey: tag, in: c, debugDescription: "not an ISO-8601 date")
            }
            self = .date(date)
        case .instant: self = .date(Date(timeIntervalSince1970: try c.decode(Double.self, forKey: tag)))
        case .list: self = .list(try c.decode([FieldValue].self, forKey: tag))
        case .data: self = .data(try c.decode(Data.self, forKey: tag))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        if case .null = self {
            var single = encoder.singleValueContainer()
            try single.encodeNil()
            return
        }
        var c = encoder.container(keyedBy: Tag.self)
        switch self {
        case .null: break
        case .bool(let v): try c.encode(v, forKey: .bool)
        case .int(let v): try c.encode(v, forKey: .int)
        case .double(let v):
            // JSON has no NaN nor infinity (the encoder refused them, and no draft was kept): named.
            if let name = ValueBytes.nonFiniteName(v) { try c.encode(name, forKey: .double) } else { try c.encode(v, forKey: .double) }
        case .text(let v): try c.encode(v, forKey: .text)
        case .date(let v):
            let text = ISO8601.dateTime(v)
            if ISO8601.parse(text) == v {
                try c.encode(text, forKey: .date)
            } else {
                try c.encode(v.timeIntervalSince1970, forKey: .instant)
            }
        case .list(let v): try c.encode(v, forKey: .list)
        case .data(let v): try c.encode(v, forKey: .data)
        }
    }
}
