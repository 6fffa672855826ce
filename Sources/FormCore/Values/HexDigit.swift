/// One hexadecimal digit's value, for everything that reads bytes typed or
/// stored as hex (the `hex` transform, CSV's `\x…` cells, PostgreSQL's
/// `bytea`, percent-encoded form bodies).
///
/// ```swift
/// HexDigit.value(UInt8(ascii: "b"))   // 11
/// HexDigit.value(UInt8(ascii: "g"))   // nil
/// ```
public enum HexDigit {
    public static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
