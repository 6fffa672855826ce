import FoundationEssentials

/// A JSON document as read by the spec decoder: objects keep their members
/// in order (and duplicates are caught), numbers keep whether they were
/// written as integers. `JSONSerialization` loses both.
enum JSONNode: Equatable {
    case null
    case bool(Bool)
    /// The value, and the integer when the literal was one (`3`, not `3.0`).
    case number(Double, integer: Int64?)
    case string(String)
    case array([JSONNode])
    case object([Member])

    struct Member: Equatable {
        var key: String
        var value: JSONNode
    }

    /// What a spec error calls this node's type.
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    static func integer(_ i: Int64) -> JSONNode { .number(Double(i), integer: i) }
    static func double(_ d: Double) -> JSONNode {
        .number(d, integer: d.rounded() == d && abs(d) < 9e15 ? Int64(d) : nil)
    }
}

// MARK: - Reading

/// A small JSON reader whose errors give line and column.
struct JSONReader {
    struct Failure: Error {
        let line: Int
        let column: Int
        let message: String
    }

    private let bytes: [UInt8]
    private var index = 0

    static func parse(_ data: Data) throws(Failure) -> JSONNode {
        var reader = JSONReader(bytes: Array(data))
        // JSON text is UTF-8 (RFC 8259): a bad byte is an error, not a U+FFFD in a name.
        if let bad = firstInvalidUTF8(reader.bytes) {
            reader.index = bad
            throw reader.failure("invalid UTF-8")
        }
        reader.skipSpace()
        let node = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == reader.bytes.count else { throw reader.failure("unexpected text after the document") }
        return node
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// The offset of the first byte that is not part of valid UTF-8, if any.
    private static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    private func failure(_ message: String) -> Failure {
        var line = 1
        var column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return Failure(line: line, column: column, message: message)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        while let c = current, c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { index += 1 }
    }

    private mutating func expect(_ literal: String, _ node: JSONNode) throws(Failure) -> JSONNode {
        let expected = Array(literal.utf8)
        guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw failure("unexpected character")
        }
        index += expected.count
        return node
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONNode {
        guard depth < 512 else { throw failure("nested too deeply") }
        guard let c = current else { throw failure("unexpected end of the document") }
        switch c {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("unexpected character \"\(String(decoding: [c], as: UTF8.self))\"")
        }
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONNode {
        index += 1
        var members: [JSONNode.Member] = []
        skipSpace()
        if current == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a key in double quotes") }
            let keyStart = index
            let key = try string()
            if members.contains(where: { $0.key == key }) {
                index = keyStart
                throw failure("duplicate key \"\(key)\"")
            }
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw failure("expected \":\" after the key") }
            index += 1
            skipSpace()
            members.append(JSONNode.Member(key: key, value: try value(depth: depth + 1)))
            skipSpace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw failure("expected \",\" or \"}\"")
            }
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONNode {
        index += 1
        var items: [JSONNode] = []
        skipSpace()
        if current == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(items)
            default: throw failure("expected \",\" or \"]\"")
            }
        }
    }

    private mutating func string() throws(Failure) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
            run.removeAll()
        }
        while let c = current {
            switch c {
            case UInt8(ascii: "\""):
                index += 1
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush()
                index += 1
                guard let e = current else { break }
                index += 1
                switch e {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code), current == UInt8(ascii: "\\") {
                        index += 1
                        guard current == UInt8(ascii: "u") else { throw failure("expected a low surrogate") }
                        index += 1
                        let low = try hex4()
                        // Another high surrogate here trapped on the subtraction (found by Scripts/fuzz.sh).
                        guard (0xDC00..<0xE000).contains(low) else { throw failure("expected a low surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw failure("invalid \\u escape") }
                    scalars.append(scalar)
                default:
                    index -= 1
                    throw failure("invalid escape")
                }
            case 0x00..<0x20:
                throw failure("control character in a string")
            default:
                run.append(c)
                index += 1
            }
        }
        throw failure("unterminated string")
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard bytes.count - index >= 4, let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
            throw failure("invalid \\u escape")
        }
        index += 4
        return code
    }

    private mutating func number() throws(Failure) -> JSONNode {
        let start = index
        var isInteger = true
        if current == UInt8(ascii: "-") { index += 1 }
        func digits() -> Int {
            let from = index
            while let c = current, c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") { index += 1 }
            return index - from
        }
        guard digits() > 0 else { throw failure("invalid number") }
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard digits() > 0 else { throw failure("invalid number") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw failure("invalid number") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text) else { throw failure("invalid number") }
        guard value.isFinite else { throw failure("number out of range") }
        return .number(value, integer: isInteger ? Int64(text) : nil)
    }
}

// MARK: - Writing

extension JSONNode {
    /// Pretty JSON (two-space indent) with object keys sorted.
    func serialized() -> Data {
        var out = ""
        write(into: &out, indent: "")
        out += "\n"
        return Data(out.utf8)
    }

    private func write(into out: inout String, indent: String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let d, let integer):
            if let integer { out += String(integer) } else { out += d.isFinite ? String(d) : "null" }
        case .string(let s): out += JSONNode.escaped(s)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            if items.allSatisfy(\.isScalar), items.count <= 8 {
                out += "["
                for (i, item) in items.enumerated() {
                    if i > 0 { out += ", " }
                    item.write(into: &out, indent: indent)
                }
                out += "]"
                return
            }
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += indent + "  "
                item.write(into: &out, indent: indent + "  ")
                out += i < items.count - 1 ? ",\n" : "\n"
            }
            out += indent + "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{\n"
            let sorted = members.sorted { $0.key < $1.key }
            for (i, member) in sorted.enumerated() {
                out += indent + "  " + JSONNode.escaped(member.key) + ": "
                member.value.write(into: &out, indent: indent + "  ")
                out += i < sorted.count - 1 ? ",\n" : "\n"
            }
            out += indent + "}"
        }
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }

    static func escaped(_ s: String) -> String { JSONText.quoted(s) }
}
