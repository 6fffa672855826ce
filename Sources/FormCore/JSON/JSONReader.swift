public import FoundationEssentials

/// The one JSON reader: specs, the JSON door (`FormSession.apply(json:)`),
/// `DictionaryModel`, and the command's import, `new --json` and `set
/// FIELD:=JSON` all read through it, so they agree on what JSON is.
///
/// It reads UTF-8 bytes in place (a string is made once, from its own bytes),
/// keeps an object's members in order, catches duplicate keys, keeps whether a
/// number was written as an integer, and refuses a lone surrogate (`\uD800`
/// without its low half). Every error names the line and column.
///
/// ```swift
/// var reader = JSONReader(bytes, maxDepth: 64)
/// reader.skipSpace()
/// let node = try reader.value()
/// ```
///
/// A streaming caller gives it the bytes it has: an error with `isTruncated`
/// means the text ended inside the value, and the value may be read again
/// from the same start once more bytes have arrived.
public struct JSONReader {
    /// A line and column (both 1-based; a column counts characters).
    public struct Position: Sendable, Hashable {
        public var line: Int
        public var column: Int

        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }

        public static let start = Position(line: 1, column: 1)
    }

    private let bytes: [UInt8]
    /// The offset of the next byte to read.
    public private(set) var index: Int
    private let end: Int
    private let maxDepth: Int
    /// How deeply the next value is nested.
    private var depth = 0
    private let integersMustFit: Bool
    /// An object's members keep their values' text as written (`JSONNode.Member.text`).
    private let keepsDocumentText: Bool
    /// The line of the next byte.
    public private(set) var line: Int
    /// Where that line starts in `bytes` (or where reading started; that byte's column is `columnBase`).
    private var lineStart: Int
    private var columnBase: Int

    /// - parameter start, end: the part of `bytes` to read (by default all of it).
    /// - parameter position: the line and column of the byte at `start`.
    /// - parameter maxDepth: how deeply arrays and objects may nest.
    /// - parameter integersMustFit: an integer literal beyond `Int64` is an
    ///   error (`integer out of range: …`) rather than read as a `Double`, and
    ///   so is a number with more digits than a double holds (`more digits than
    ///   a number can hold exactly: 0.30000000000000000001`), which it would round.
    /// - parameter keepsDocumentText: each object's member whose value is an
    ///   object or an array keeps that value's text as written
    ///   (`JSONNode.Member.text`): values a record stores as documents. A
    ///   spec or a model, read for its structure, makes none.
    public init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil, at position: Position = .start,
                maxDepth: Int = 512, integersMustFit: Bool = false, keepsDocumentText: Bool = false) {
        self.bytes = bytes
        self.index = start
        self.end = end ?? bytes.count
        self.maxDepth = maxDepth
        self.integersMustFit = integersMustFit
        self.keepsDocumentText = keepsDocumentText
        line = position.line
        lineStart = start
        columnBase = position.column
    }

    /// Reads a whole document: one value, with only whitespace around it.
    ///
    /// - throws: `JSONSyntaxError`.
    public static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONNode {
        try parse([UInt8](data))
    }

    /// Reads a whole document: one value, with only whitespace around it
    /// (and a UTF-8 byte-order mark before it, which RFC 8259 lets a reader ignore).
    ///
    /// - throws: `JSONSyntaxError`.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = 512, integersMustFit: Bool = false,
                             keepsDocumentText: Bool = false) throws(JSONSyntaxError) -> JSONNode {
        var reader = JSONReader(bytes, maxDepth: maxDepth, integersMustFit: integersMustFit,
                                keepsDocumentText: keepsDocumentText)
        reader.skipByteOrderMark()
        reader.skipSpace()
        let node = try reader.value()
        reader.skipSpace()
        guard reader.isAtEnd else { throw reader.failure("unexpected text after the document") }
        return node
    }

    /// The line and column of the next byte.
    public var position: Position { Position(line: line, column: column(at: index)) }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { index >= end }

    /// The bytes not read yet.
    public var remainingBytes: ArraySlice<UInt8> { bytes[index..<end] }

    /// The next byte, not consumed; nil at the end.
    public var current: UInt8? { index < end ? bytes[index] : nil }

    /// Consumes the next byte (one that is not whitespace: `skipSpace()` consumes that).
    public mutating func skipByte() {
        index += 1
    }

    /// Consumes spaces, tabs and line breaks.
    public mutating func skipSpace() {
        while index < end {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
                columnBase = 1
            default: return
            }
        }
    }

    /// Skips a UTF-8 byte-order mark at the next byte.
    public mutating func skipByteOrderMark() {
        if end - index >= 3, bytes[index] == 0xEF, bytes[index + 1] == 0xBB, bytes[index + 2] == 0xBF {
            index += 3
            lineStart = index
        }
    }

    /// An error at the next byte (truncated when every byte has been read).
    public func failure(_ message: String, reason: String? = nil) -> JSONSyntaxError {
        failure(message, reason: reason, at: index)
    }

    /// - parameter truncated: whether the text ended too soon (by default: when `offset` is at the end).
    private func failure(_ message: String, reason: String? = nil, at offset: Int, truncated: Bool? = nil) -> JSONSyntaxError {
        JSONSyntaxError(line: line, column: column(at: offset), message: message, reason: reason,
                        isTruncated: truncated ?? (offset >= end))
    }

    private func column(at offset: Int) -> Int {
        var column = columnBase
        var i = lineStart
        while i < min(offset, bytes.count) {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return column
    }

    // MARK: Values

    /// Reads one value at the next byte (no whitespace before it).
    ///
    /// - throws: `JSONSyntaxError`.
    public mutating func value() throws(JSONSyntaxError) -> JSONNode {
        guard depth < maxDepth else { throw failure("nested too deeply") }
        guard let c = current else { throw failure("unexpected end of input") }
        switch c {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default:
            throw failure("unexpected character '\(Character(Unicode.Scalar(c)))'", reason: "unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString, _ node: JSONNode) throws(JSONSyntaxError) -> JSONNode {
        let start = index
        let count = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { expected in
            end - index >= count && (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        // `truex` is no literal either.
        guard matches, !(index + count < end && Self.isLetter(bytes[index + count])) else {
            let truncated = end - index < count
                && word.withUTF8Buffer { expected in (index..<end).allSatisfy { bytes[$0] == expected[$0 - index] } }
            throw failure("invalid literal, expected '\(word)'", at: start, truncated: truncated)
        }
        index += count
        return node
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte >= 0x80
    }

    private mutating func object() throws(JSONSyntaxError) -> JSONNode {
        var members: [JSONNode.Member] = []
        var keys: Set<String> = []
        var cursor = try beginObject()
        while let key = try nextKey(&cursor) {
            // Room for a record's members at once: growing from one reallocated four times per import row.
            if members.isEmpty { members.reserveCapacity(16) }
            let name = string(of: key)
            // A few members are compared in place; a large object keeps a set.
            let duplicate = members.count < 16 ? members.contains { $0.key == name } : !keys.insert(name).inserted
            if members.count == 15 { keys = Set(members.map(\.key) + [name]) }
            if duplicate { throw duplicateKey(key) }
            if keepsDocumentText {
                let (value, text) = try memberValueAndText(of: key)
                members.append(JSONNode.Member(key: name, value: value, text: text))
            } else {
                members.append(JSONNode.Member(key: name, value: try memberValue(of: key)))
            }
        }
        return .object(members)
    }

    /// `memberValue(of:)`, with the value's text as written (`compactSource`)
    /// when it is an object or an array (`JSONNode.Member.text`).
    public mutating func memberValueAndText(of key: Key) throws(JSONSyntaxError) -> (JSONNode, String?) {
        try skipColon(after: key)
        return try valueAndText()
    }

    /// `value()`, with the value's text as written when it is an object or
    /// an array (its bytes without the space between tokens), or a number
    /// with a fraction or an exponent whose text its value may not give back
    /// (`12.50`, `1e2`, and `-0`): a text field takes such a number as written, as it
    /// takes `12.50` typed.
    public mutating func valueAndText() throws(JSONSyntaxError) -> (JSONNode, String?) {
        let start = index
        let node = try value()
        switch node {
        case .object, .array: return (node, compactSource(start..<index))
        case .number(_, integer: nil) where isWrittenOtherwise(start..<index),
             // `-0`: an integer has no negative zero.
             .number(0, integer: 0?) where bytes[start] == UInt8(ascii: "-"):
            return (node, String(decoding: bytes[start..<index], as: UTF8.self))
        default: return (node, nil)
        }
    }

    /// Whether a number's text at `range` has an exponent, a fraction ending
    /// in 0, or more digits than a double's shortest text has (17): told by
    /// its bytes, where formatting every number of an import to compare cost
    /// more than reading it.
    private func isWrittenOtherwise(_ range: Range<Int>) -> Bool {
        var digits = 0
        for byte in bytes[range] {
            switch byte {
            case UInt8(ascii: "e"), UInt8(ascii: "E"): return true
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            default: break
            }
        }
        return digits > 17 || bytes[range.upperBound - 1] == UInt8(ascii: "0")
    }

    /// The JSON text at `range` (whole values, checked already) without the
    /// space between its tokens: strings, numbers and literals byte for byte.
    private func compactSource(_ range: Range<Int>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        var inString = false
        var escaped = false
        for byte in bytes[range] {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                out.append(byte)
                continue
            }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): continue
            case UInt8(ascii: "\""): inString = true
            default: break
            }
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Objects member by member

    /// An object being read member by member (`beginObject()`).
    public struct MemberCursor: Sendable {
        fileprivate var hasMembers = false
    }

    /// An object member's key as read (escapes decoded, checked to be UTF-8),
    /// compared in place (`key(_:is:)`): a `String` is made only when asked.
    public struct Key: Sendable {
        /// Where the key's bytes lie in the text, between its quotes.
        fileprivate let range: Range<Int>
        /// The bytes with the escapes decoded, when the key had any.
        fileprivate let decoded: [UInt8]?
    }

    /// Whether `key` is the name whose UTF-8 is `utf8`, byte for byte.
    public func key(_ key: Key, is utf8: [UInt8]) -> Bool {
        if let decoded = key.decoded { return decoded == utf8 }
        guard key.range.count == utf8.count else { return false }
        return bytes.withUnsafeBufferPointer { text in
            utf8.withUnsafeBufferPointer { name in
                var i = 0
                while i < name.count, text[key.range.lowerBound + i] == name[i] { i += 1 }
                return i == name.count
            }
        }
    }

    /// The key as a string.
    public func string(of key: Key) -> String { Self.string(of: key, in: bytes) }

    /// A string's text (`stringBytes()`): static, as a method on the reader
    /// copied the whole reader per string value.
    private static func string(of key: Key, in bytes: [UInt8]) -> String {
        if let decoded = key.decoded { return String(decoding: decoded, as: UTF8.self) }
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[key.range]), as: UTF8.self) }
    }

    /// Starts reading the object at the next byte (its `{`) member by member,
    /// building nothing: what `value()` does for an object, with the caller
    /// taking each member as it comes. A caller that reads JSON into its own
    /// shape (an import's record) makes no `JSONNode` and no string of a key.
    ///
    /// ```swift
    /// var cursor = try reader.beginObject()
    /// while let key = try reader.nextKey(&cursor) {
    ///     let name = reader.string(of: key)
    ///     guard seen.insert(name).inserted else { throw reader.duplicateKey(key) }
    ///     print(name, try reader.memberValue(of: key))
    /// }
    /// ```
    ///
    /// - throws: `JSONSyntaxError`.
    public mutating func beginObject() throws(JSONSyntaxError) -> MemberCursor {
        guard depth < maxDepth else { throw failure("nested too deeply") }
        guard current == UInt8(ascii: "{") else { throw failure("expected a JSON object") }
        index += 1
        depth += 1
        return MemberCursor()
    }

    /// The next member's key, up to (not including) its `:`; nil, past the
    /// closing `}`, when the object has no more. Read the member's value with
    /// `memberValue(of:)` before asking for the next key.
    ///
    /// - throws: `JSONSyntaxError`.
    public mutating func nextKey(_ cursor: inout MemberCursor) throws(JSONSyntaxError) -> Key? {
        skipSpace()
        if cursor.hasMembers {
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): return endObject()
            default: throw failure("expected ',' or '}'")
            }
            skipSpace()
        } else if current == UInt8(ascii: "}") {
            return endObject()
        }
        cursor.hasMembers = true
        guard current == UInt8(ascii: "\"") else { throw failure("expected a quoted key") }
        return try stringBytes()
    }

    private mutating func endObject() -> Key? {
        index += 1
        depth -= 1
        return nil
    }

    /// The value of the member whose key `nextKey` just read (its `:` and the value).
    ///
    /// - throws: `JSONSyntaxError`.
    public mutating func memberValue(of key: Key) throws(JSONSyntaxError) -> JSONNode {
        try skipColon(after: key)
        return try value()
    }

    /// Consumes the `:` after a key, and the space around it.
    private mutating func skipColon(after key: Key) throws(JSONSyntaxError) {
        skipSpace()
        guard current == UInt8(ascii: ":") else {
            throw failure("expected ':' after key '\(string(of: key))'", reason: "expected ':' after a key")
        }
        index += 1
        skipSpace()
    }

    /// The error for a key the object already had, at that key.
    public func duplicateKey(_ key: Key) -> JSONSyntaxError {
        // At the key's opening quote.
        failure("duplicate key '\(string(of: key))'", reason: "duplicate key", at: key.range.lowerBound - 1)
    }

    private mutating func array() throws(JSONSyntaxError) -> JSONNode {
        index += 1
        depth += 1
        defer { depth -= 1 }
        var items: [JSONNode] = []
        skipSpace()
        if current == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try value())
            skipSpace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(items)
            default: throw failure("expected ',' or ']'")
            }
        }
    }

    // MARK: Strings

    /// A string at the opening quote, made once from its bytes (`stringBytes()`).
    private mutating func string() throws(JSONSyntaxError) -> String {
        Self.string(of: try stringBytes(), in: bytes)
    }

    /// A string's bytes at the opening quote, checked to be UTF-8: where they
    /// lie when the string has no escapes, else decoded into a copy.
    private mutating func stringBytes() throws(JSONSyntaxError) -> Key {
        let start = index + 1
        // The usual key and value, plain ASCII up to the closing quote, taken where it lies
        // in one scan: the general walk below cost more per string than its bytes (issue 14).
        let (stop, closed) = bytes.withUnsafeBufferPointer { [end] text in Self.plainASCIIRun(text, from: start, to: end) }
        if closed {
            index = stop + 1
            return Key(range: start..<stop, decoded: nil)
        }
        index = start
        var decoded: [UInt8] = []
        var runStart = start
        var escaped = false
        var isASCII = true
        while index < end {
            // The run of plain bytes scanned through the buffer: indexing the array checked every byte's bounds.
            let (stop, high) = bytes.withUnsafeBufferPointer { text in
                var i = index
                var high: UInt8 = 0
                while i < end, text[i] != UInt8(ascii: "\""), text[i] != UInt8(ascii: "\\"), text[i] >= 0x20 {
                    high |= text[i]
                    i += 1
                }
                return (i, high)
            }
            index = stop
            if high >= 0x80 { isASCII = false }
            guard index < end else { break }
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                if escaped { decoded += bytes[runStart..<index] }
                let key = Key(range: start..<index, decoded: escaped ? decoded : nil)
                // ASCII (the usual key and value) needs no validating; an escape may have added bytes past it.
                let valid = isASCII && !escaped
                    || (escaped ? decoded.withUnsafeBufferPointer(Self.isUTF8)
                                : bytes.withUnsafeBufferPointer { Self.isUTF8(UnsafeBufferPointer(rebasing: $0[start..<index])) })
                guard valid else { throw failure("invalid UTF-8", at: invalidUTF8Offset(from: start)) }
                index += 1
                return key
            } else if c == UInt8(ascii: "\\") {
                if !escaped { decoded.reserveCapacity(index - start + 16) }
                escaped = true
                decoded += bytes[runStart..<index]
                try escape(into: &decoded)
                runStart = index
            } else {
                throw failure("control character in string")
            }
        }
        throw failure("unterminated string")
    }

    /// Where the run of plain ASCII (no quote, backslash, control or
    /// non-ASCII byte) from `start` stops, and whether a closing quote stops it.
    private static func plainASCIIRun(_ text: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int)
        -> (stop: Int, closed: Bool) {
        var i = start
        while i < end {
            let c = text[i]
            if c == UInt8(ascii: "\"") { return (i, true) }
            // One comparison for both ends: below 0x20 wraps around past 0x5F.
            guard c &- 0x20 < 0x60, c != UInt8(ascii: "\\") else { return (i, false) }
            i += 1
        }
        return (i, false)
    }

    /// Whether `bytes` are UTF-8.
    private static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// Decodes the escape at the backslash, moving past it.
    private mutating func escape(into out: inout [UInt8]) throws(JSONSyntaxError) {
        let backslash = index
        index += 1
        guard let e = current else { throw failure("unterminated string") }
        index += 1
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var code = try hex4()
            if (0xD800..<0xDC00).contains(code) {
                // A high surrogate must be followed by its low half, as `\uDC00`…`\uDFFF`.
                guard end - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw unpairedSurrogate(at: backslash, truncated: end - index < 6)
                }
                index += 2
                guard end - index >= 4 else { throw unpairedSurrogate(at: backslash, truncated: true) }
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw unpairedSurrogate(at: backslash) }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(code) else { throw unpairedSurrogate(at: backslash) }
            UTF8.encode(scalar) { out.append($0) }
        default:
            throw failure("invalid escape '\\\(Character(Unicode.Scalar(e)))'", reason: "invalid escape", at: backslash)
        }
    }

    /// - parameter truncated: the text ended where the low half would be (a streamed chunk may bring it).
    private func unpairedSurrogate(at offset: Int, truncated: Bool = false) -> JSONSyntaxError {
        failure("unpaired surrogate in \\u escape", at: offset, truncated: truncated)
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard let c = current, let digit = Self.hexDigit(c) else { throw failure("invalid \\u escape") }
            code = code << 4 | digit
            index += 1
        }
        return code
    }

    private static func hexDigit(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(c - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// The offset of the first byte from `start` that is not part of valid UTF-8.
    private func invalidUTF8Offset(from start: Int) -> Int {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes[start..<index].makeIterator()
        var offset = start
        while case .valid(let encoded) = parser.parseScalar(from: &iterator) { offset += encoded.count }
        return offset
    }

    // MARK: Numbers

    /// A number, to JSON's grammar `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    /// (no leading zeros, no bare `-`, digits around `.`).
    private mutating func number() throws(JSONSyntaxError) -> JSONNode {
        let start = index
        // Scanned through the buffer: indexing the array checked every byte's bounds.
        let (stop, isInteger) = bytes.withUnsafeBufferPointer { [end] text in
            var i = start
            var isInteger = true
            scan: while i < end {
                switch text[i] {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"): break
                case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): isInteger = false
                default: break scan
                }
                i += 1
            }
            return (i, isInteger)
        }
        index = stop
        return try number(start..<stop, isInteger: isInteger)
    }

    private func number(_ range: Range<Int>, isInteger: Bool) throws(JSONSyntaxError) -> JSONNode {
        // Checked and read through the buffer: the array slice's generic walk cost more than the number.
        let (valid, integer) = bytes.withUnsafeBufferPointer { text in
            let literal = UnsafeBufferPointer(rebasing: text[range])
            let valid = Self.isJSONNumber(literal)
            return (valid, valid && isInteger ? Self.integer(literal) : nil)
        }
        guard valid else {
            // A number running to the end of a streamed chunk may go on in the next.
            // The number is not echoed (nor below): it may be a secure field's value; the position names it.
            throw failure("invalid number", reason: "invalid number",
                          at: range.lowerBound, truncated: range.upperBound >= end)
        }
        if let integer { return .number(Double(integer), integer: integer) }
        if !isInteger, let value = bytes.withUnsafeBufferPointer({ Self.exactDouble(UnsafeBufferPointer(rebasing: $0[range])) }) {
            return .number(value, integer: nil)
        }
        // The slice made only here: made for every number, it cost a retain and a release of the text.
        let text = String(decoding: bytes[range], as: UTF8.self)
        if isInteger, integersMustFit {
            throw failure("integer out of range", reason: "integer out of range", at: range.lowerBound)
        }
        guard let value = Double(text), value.isFinite else {
            throw failure("number out of range", reason: "number out of range", at: range.lowerBound)
        }
        if integersMustFit, !DecimalDigits.holdsExactly(text, value) {
            // A number running to the end of a streamed chunk may have more digits in the next.
            throw failure("more digits than a number can hold exactly", reason: "number not exact",
                          at: range.lowerBound, truncated: range.upperBound >= end)
        }
        return .number(value, integer: nil)
    }

    /// An integer literal's value, nil beyond `Int64`.
    private static func integer(_ literal: UnsafeBufferPointer<UInt8>) -> Int64? {
        let negative = literal.first == UInt8(ascii: "-")
        var value: Int64 = 0
        for digit in literal.dropFirst(negative ? 1 : 0) {
            let d = Int64(digit - UInt8(ascii: "0"))
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? times10.subtractingReportingOverflow(d) : times10.addingReportingOverflow(d)
            guard !o1, !o2 else { return nil }
            value = next
        }
        return value
    }

    /// A valid number literal's value when it has at most 15 significant
    /// digits and a power of ten within 10^±22 (`0.125`, `-3.5e2`); nil for
    /// any other, which `Double(String)` reads (the strtod call cost more than the
    /// rest of the number). Exact then: the digits and the power are each a
    /// `Double` exactly, so the one multiplication or division rounds correctly
    /// (Clinger's fast path).
    private static func exactDouble(_ literal: UnsafeBufferPointer<UInt8>) -> Double? {
        var digits: UInt64 = 0
        var digitCount = 0
        var exponent = 0
        var i = literal.startIndex
        let negative = literal[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var inFraction = false
        while i < literal.endIndex {
            let c = literal[i]
            if c == UInt8(ascii: ".") {
                inFraction = true
            } else if c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") {
                // Leading zeros are no significant digits.
                if digits != 0 || c != UInt8(ascii: "0") { digitCount += 1 }
                guard digitCount <= 15 else { return nil }
                digits = digits * 10 + UInt64(c - UInt8(ascii: "0"))
                if inFraction { exponent -= 1 }
            } else {
                break
            }
            i += 1
        }
        if i < literal.endIndex {
            // The exponent, after `e` or `E` (the literal is valid JSON).
            i += 1
            let negativeExponent = literal[i] == UInt8(ascii: "-")
            if literal[i] == UInt8(ascii: "-") || literal[i] == UInt8(ascii: "+") { i += 1 }
            var written = 0
            while i < literal.endIndex {
                written = written * 10 + Int(literal[i] - UInt8(ascii: "0"))
                guard written <= 1000 else { return nil }
                i += 1
            }
            exponent += negativeExponent ? -written : written
        }
        guard exponent >= -22, exponent <= 22 else { return nil }
        var power = 1.0
        for _ in 0..<abs(exponent) { power *= 10 }
        let magnitude = exponent < 0 ? Double(digits) / power : Double(digits) * power
        return negative ? -magnitude : magnitude
    }

    private static func isJSONNumber(_ literal: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = literal.startIndex
        let end = literal.endIndex
        func isDigit(_ at: Int) -> Bool { at < end && literal[at] >= UInt8(ascii: "0") && literal[at] <= UInt8(ascii: "9") }
        /// Consumes one or more digits; false when there is none.
        func digits() -> Bool {
            guard isDigit(i) else { return false }
            while isDigit(i) { i += 1 }
            return true
        }
        if i < end, literal[i] == UInt8(ascii: "-") { i += 1 }
        if i < end, literal[i] == UInt8(ascii: "0") {
            i += 1
        } else if !digits() {
            return false
        }
        if i < end, literal[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() else { return false }
        }
        if i < end, literal[i] == UInt8(ascii: "e") || literal[i] == UInt8(ascii: "E") {
            i += 1
            if i < end, literal[i] == UInt8(ascii: "+") || literal[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() else { return false }
        }
        return i == end
    }
}

@available(*, unavailable)
extension JSONReader: Sendable {}
