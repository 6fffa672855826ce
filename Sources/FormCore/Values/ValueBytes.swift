/// The bytes of a value's parts, written straight into an output buffer: the
/// one place numbers, base64 and hex are spelled for JSON, NDJSON and CSV
/// (docs/values.md), whether the value came from a `FieldValue` or from a
/// column read in place by an export.
///
/// ```swift
/// var out: [UInt8] = []
/// ValueBytes.appendInteger(-42, to: &out)       // "-42"
/// ValueBytes.appendNumber(0.1, to: &out)        // "0.1"
/// ValueBytes.appendBase64(bytes, to: &out)      // "AP8="
/// ```
public enum ValueBytes {
    /// Decimal digits, a `-` in front of a negative number.
    public static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        if value == 0 { out.append(UInt8(ascii: "0")); return }
        var magnitude = value.magnitude
        // Digits come out last first: fill a small stack buffer backwards.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var index = 20
            while magnitude > 0 {
                index -= 1
                digits[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            if value < 0 { out.append(UInt8(ascii: "-")) }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[index..<20]))
        }
    }

    /// The shortest text that reads back as the same double (`1.5`, `2.0`,
    /// `1e-07`, `inf`): Swift's own, which import parses back exactly.
    public static func appendNumber(_ value: Double, to out: inout [UInt8]) {
        out.append(contentsOf: (nonFiniteName(value) ?? value.description).utf8)
    }

    /// A double as a JSON value: a number, or for one that is no finite
    /// number, its name as a string (`"NaN"`, `"Infinity"`, `"-Infinity"`),
    /// which JSON has no number for and import reads back (`nonFiniteDouble(named:)`).
    public static func appendJSONNumber(_ value: Double, to out: inout [UInt8]) {
        guard let name = nonFiniteName(value) else { return appendNumber(value, to: &out) }
        out.append(UInt8(ascii: "\""))
        out += name.utf8
        out.append(UInt8(ascii: "\""))
    }

    /// How a value that is no finite number is written where JSON and CSV
    /// have no number for it: PostgreSQL's and JavaScript's names (`NaN`,
    /// `Infinity`, `-Infinity`); `nil` for a finite number. (Not an
    /// initializer on `Double`: an unlabeled `Double.init` would pick it.)
    public static func nonFiniteName(_ value: Double) -> String? {
        if value.isNaN { return "NaN" }
        guard value.isInfinite else { return nil }
        return value < 0 ? "-Infinity" : "Infinity"
    }

    /// The value `nonFiniteName(_:)` names; `nil` for any other text.
    public static func nonFiniteDouble(named name: String) -> Double? {
        switch name {
        case "NaN": return .nan
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: return nil
        }
    }

    private static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Standard base64 with `=` padding and no line breaks (what
    /// `Data.base64EncodedString()` gives).
    public static func appendBase64(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        out.reserveCapacity(out.count + (bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out.append(base64Alphabet[Int((chunk >> 18) & 0x3F)])
            out.append(base64Alphabet[Int((chunk >> 12) & 0x3F)])
            out.append(base64Alphabet[Int((chunk >> 6) & 0x3F)])
            out.append(base64Alphabet[Int(chunk & 0x3F)])
            index += 3
        }
        let rest = bytes.count - index
        guard rest > 0 else { return }
        let chunk = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
        out.append(base64Alphabet[Int((chunk >> 18) & 0x3F)])
        out.append(base64Alphabet[Int((chunk >> 12) & 0x3F)])
        out.append(rest == 2 ? base64Alphabet[Int((chunk >> 6) & 0x3F)] : UInt8(ascii: "="))
        out.append(UInt8(ascii: "="))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Two lower-case hex digits per byte (`00ff`).
    public static func appendHex(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        out.reserveCapacity(out.count + bytes.count * 2)
        for byte in bytes {
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0x0F)])
        }
    }

    /// True when the bytes are all ASCII: such text is valid UTF-8 as it is.
    public static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !bytes.contains { $0 >= 0x80 }
    }

    /// Calls `body` with text bytes that are valid UTF-8: these bytes when they
    /// are, else as `String(decoding:)` repairs them (U+FFFD for each bad
    /// sequence), so an export of a column read in place writes exactly what
    /// one decoded to a `String` would. `body`'s second argument says whether
    /// the bytes were repaired (they will not read back the same).
    public static func withValidUTF8<R>(_ bytes: UnsafeBufferPointer<UInt8>,
                                       _ body: (UnsafeBufferPointer<UInt8>, _ repaired: Bool) throws -> R) rethrows -> R {
        if isASCII(bytes) { return try body(bytes, false) }
        var text = String(decoding: bytes, as: UTF8.self)
        return try text.withUTF8 { valid in try body(valid, !valid.elementsEqual(bytes)) }
    }
}
