import FormCore
import FoundationEssentials

/// A JSON parser that reads one value at a time straight from a `ByteReader`,
/// so an array of a million objects is never held at once. Values become
/// `FieldValue`s: numbers without a fraction or exponent are integers (beyond
/// Int64: "integer out of range"), others doubles; objects are only allowed
/// at the top of a record, and as a field's value only as a BLOB
/// (`{"$base64": "…"}`, what export writes).
struct JSONValueParser {
    let reader: ByteReader

    enum Value {
        case scalar(FieldValue)
        case object([(String, Value)])
        /// An array of objects: a group's child rows (`import --children`).
        case rows([[(String, Value)]])
    }

    // MARK: Records

    /// One object as a record: field → value.
    /// - throws: `InputError` at the line where the problem is.
    func parseRecord() throws -> [String: FieldValue] {
        let (values, rows) = try parseRecordWithRows()
        guard rows.isEmpty else {
            throw error("an object inside a list is not a field value")
        }
        return values
    }

    /// One object as a record and its child rows: a member holding an array
    /// of objects is a group's rows (field → value each), any other a field's value.
    /// - throws: `InputError` at the line where the problem is.
    func parseRecordWithRows() throws -> (values: [String: FieldValue], rows: [String: [[String: FieldValue]]]) {
        try skipWhitespace()
        guard try reader.peek() == UInt8(ascii: "{") else {
            throw error(try reader.peek() == nil ? "expected a JSON object, found the end of the input" : "expected a JSON object")
        }
        guard case .object(let members) = try parseValue(depth: 0) else { throw error("expected a JSON object") }
        var rows: [String: [[String: FieldValue]]] = [:]
        var scalars: [(String, Value)] = []
        for (key, value) in members {
            guard case .rows(let objects) = value else { scalars.append((key, value)); continue }
            guard rows.updateValue(try objects.map { try record($0) }, forKey: key) == nil else { throw error("duplicate key '\(key)'") }
        }
        let values = try record(scalars)
        if let twice = rows.keys.first(where: { values[$0] != nil }) { throw error("duplicate key '\(twice)'") }
        return (values, rows)
    }

    /// An object's members as field → value.
    private func record(_ members: [(String, Value)]) throws -> [String: FieldValue] {
        var record: [String: FieldValue] = [:]
        for (key, value) in members {
            switch value {
            case .scalar(let v):
                guard record.updateValue(v, forKey: key) == nil else { throw error("duplicate key '\(key)'") }
            case .object(let members) where key == ReferenceLabels.jsonMember && !(members.first?.0 == "$base64"):
                // The labels `show` and `list` write beside a record's foreign keys: read back, they are no value.
                continue
            case .object(let members):
                // A BLOB, as export writes it: {"$base64": "…"}.
                guard members.count == 1, members[0].0 == "$base64", case .scalar(.text(let text)) = members[0].1 else {
                    throw error("field '\(key)': a nested object is not a field value (a BLOB is {\"$base64\": \"…\"})")
                }
                guard let data = Data(base64Encoded: text) else { throw error("field '\(key)': $base64 is not valid base64") }
                guard record.updateValue(.data(data), forKey: key) == nil else { throw error("duplicate key '\(key)'") }
            case .rows:
                throw error("field '\(key)': an object inside a list is not a field value")
            }
        }
        return record
    }

    /// Nothing but whitespace may follow: `new --json` takes one object, not the first of several.
    /// - throws: `InputError` at the line of the extra text.
    func expectEndOfInput() throws {
        try skipWhitespace()
        guard try reader.peek() == nil else { throw error("unexpected text after the JSON object") }
    }

    // MARK: Values

    func parseValue(depth: Int) throws -> Value {
        guard depth < 64 else { throw error("nested too deeply") }
        try skipWhitespace()
        guard let byte = try reader.peek() else { throw error("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .scalar(.text(try parseString()))
        case UInt8(ascii: "t"): try expectWord("true"); return .scalar(.bool(true))
        case UInt8(ascii: "f"): try expectWord("false"); return .scalar(.bool(false))
        case UInt8(ascii: "n"): try expectWord("null"); return .scalar(.null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .scalar(try parseNumber())
        default: throw error("unexpected character '\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private func parseObject(depth: Int) throws -> Value {
        _ = try reader.next()
        var members: [(String, Value)] = []
        try skipWhitespace()
        if try reader.peek() == UInt8(ascii: "}") { _ = try reader.next(); return .object(members) }
        while true {
            try skipWhitespace()
            guard try reader.peek() == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
            let key = try parseString()
            try skipWhitespace()
            guard try reader.next() == UInt8(ascii: ":") else { throw error("expected ':' after key '\(key)'") }
            members.append((key, try parseValue(depth: depth + 1)))
            try skipWhitespace()
            switch try reader.next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return .object(members)
            default: throw error("expected ',' or '}'")
            }
        }
    }

    /// A list of scalars (a multichoice's values), or of objects (child rows); not a mix.
    private func parseArray(depth: Int) throws -> Value {
        _ = try reader.next()
        var items: [FieldValue] = []
        var objects: [[(String, Value)]] = []
        try skipWhitespace()
        if try reader.peek() == UInt8(ascii: "]") { _ = try reader.next(); return .scalar(.list(items)) }
        while true {
            switch try parseValue(depth: depth + 1) {
            case .scalar(let item) where objects.isEmpty: items.append(item)
            case .object(let members) where items.isEmpty: objects.append(members)
            default: throw error("a list holds values or objects (rows), not both, and no lists of lists of objects")
            }
            try skipWhitespace()
            switch try reader.next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "]"): return objects.isEmpty ? .scalar(.list(items)) : .rows(objects)
            default: throw error("expected ',' or ']'")
            }
        }
    }

    private func parseString() throws -> String {
        _ = try reader.next()
        var bytes: [UInt8] = []
        while true {
            guard let byte = try reader.next() else { throw error("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: bytes, as: UTF8.self) else { throw error("invalid UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                guard let escape = try reader.next() else { throw error("unterminated string") }
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(escape)
                case UInt8(ascii: "b"): bytes.append(0x08)
                case UInt8(ascii: "f"): bytes.append(0x0C)
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "u"): bytes += Array(String(try parseUnicodeEscape()).utf8)
                default: throw error("invalid escape '\\\(Character(Unicode.Scalar(escape)))'")
                }
            case 0..<0x20:
                throw error("control character in string")
            default:
                bytes.append(byte)
            }
        }
    }

    /// After `\u`: four hex digits, and a low surrogate after a high one.
    private func parseUnicodeEscape() throws -> Character {
        let first = try hex4()
        if (0xD800..<0xDC00).contains(first) {
            guard try reader.next() == UInt8(ascii: "\\"), try reader.next() == UInt8(ascii: "u") else {
                throw error("unpaired surrogate in \\u escape")
            }
            let second = try hex4()
            guard (0xDC00..<0xE000).contains(second) else { throw error("unpaired surrogate in \\u escape") }
            let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
            return Character(scalar)
        }
        guard let scalar = Unicode.Scalar(first) else { throw error("unpaired surrogate in \\u escape") }
        return Character(scalar)
    }

    private func hex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = try reader.next(), let digit = Character(Unicode.Scalar(byte)).hexDigitValue else {
                throw error("invalid \\u escape")
            }
            value = value * 16 + UInt32(digit)
        }
        return value
    }

    private func parseNumber() throws -> FieldValue {
        var text = ""
        var isInteger = true
        while let byte = try reader.peek() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"):
                break
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
                isInteger = false
            default:
                return try number(text, isInteger: isInteger)
            }
            text.append(Character(Unicode.Scalar(byte)))
            _ = try reader.next()
        }
        return try number(text, isInteger: isInteger)
    }

    private func number(_ text: String, isInteger: Bool) throws -> FieldValue {
        guard Self.isJSONNumber(text.utf8) else { throw error("invalid number '\(text)'") }
        if isInteger {
            guard let n = Int64(text) else { throw error("integer out of range: \(text)") }
            return .int(n)
        }
        guard let d = Double(text), d.isFinite else { throw error("number out of range: \(text)") }
        return .double(d)
    }

    /// JSON's number grammar, `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`: no
    /// leading zeros, no bare `-`, digits around `.`. Checked by hand: a regex
    /// literal is compiled again on every call, which dominated an import.
    static func isJSONNumber(_ text: String.UTF8View) -> Bool {
        var bytes = text[...]
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ?? false }
        /// Consumes one or more digits; false when there is none.
        func digits() -> Bool {
            guard isDigit(bytes.first) else { return false }
            while isDigit(bytes.first) { bytes.removeFirst() }
            return true
        }
        if bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes.removeFirst()
        } else if !digits() {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes.removeFirst()
            guard digits() else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes.removeFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
            guard digits() else { return false }
        }
        return bytes.isEmpty
    }

    private func expectWord(_ word: String) throws {
        for expected in word.utf8 {
            guard try reader.next() == expected else { throw error("invalid literal, expected '\(word)'") }
        }
        if let byte = try reader.peek(), Character(Unicode.Scalar(byte)).isLetter {
            throw error("invalid literal, expected '\(word)'")
        }
    }

    func skipWhitespace() throws {
        while let byte = try reader.peek(),
              byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            _ = try reader.next()
        }
    }

    func error(_ message: String) -> InputError {
        InputError(line: reader.line, message: message)
    }
}
