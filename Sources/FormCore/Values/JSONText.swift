/// JSON string literals, written one way everywhere (specs, stored lists,
/// exports): quotes, backslashes, control characters, DEL and U+2028/U+2029
/// (which break JavaScript) escaped.
///
/// ```swift
/// JSONText.quoted("two\nlines")   // the 12 characters "two\nlines", quotes included
/// ```
public enum JSONText {
    /// The string as a JSON string literal, quotes included.
    public static func quoted(_ s: String) -> String {
        var out: [UInt8] = []
        appendQuoted(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends a JSON string literal as UTF-8, escaping quotes, backslashes,
    /// control characters, DEL and U+2028/U+2029 (which break JavaScript).
    public static func appendQuoted(_ s: String, to out: inout [UInt8]) {
        var s = s
        s.withUTF8 { appendQuoted(utf8: $0, to: &out) }
    }

    /// Appends the JSON string literal of valid UTF-8 text given as bytes (a
    /// column read in place by an export): the same escapes as for a String.
    public static func appendQuoted(utf8 bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.reserveCapacity(out.count + bytes.count + 2)
        out.append(UInt8(ascii: "\""))
        // Most text needs no escape: copy it whole (an export's hottest loop).
        guard bytes.contains(where: needsEscape) else {
            out.append(contentsOf: bytes)
            out.append(UInt8(ascii: "\""))
            return
        }
        var utf8 = bytes.makeIterator()
        while let byte = utf8.next() {
            switch byte {
            case UInt8(ascii: "\""): out += #"\""#.utf8
            case UInt8(ascii: "\\"): out += #"\\"#.utf8
            case UInt8(ascii: "\n"): out += #"\n"#.utf8
            case UInt8(ascii: "\r"): out += #"\r"#.utf8
            case UInt8(ascii: "\t"): out += #"\t"#.utf8
            case 0..<0x20, 0x7F: appendUnicodeEscape(UInt32(byte), to: &out)
            case 0xE2:
                // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
                let second = utf8.next()
                let third = second == 0x80 ? utf8.next() : nil
                if let third, third == 0xA8 || third == 0xA9 {
                    appendUnicodeEscape(third == 0xA8 ? 0x2028 : 0x2029, to: &out)
                } else {
                    out.append(byte)
                    if let second { out.append(second) }
                    if let third { out.append(third) }
                }
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// A byte that starts something `appendQuoted` escapes (0xE2 may begin U+2028/U+2029).
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F || byte == 0xE2
    }

    private static func appendUnicodeEscape(_ value: UInt32, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out += #"\u"#.utf8
        for shift in stride(from: 12, through: 0, by: -4) { out.append(hex[Int((value >> UInt32(shift)) & 0xF)]) }
    }
}
