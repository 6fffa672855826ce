import FormCore
import FoundationEssentials

/// How CSV carries SQLite's storage classes, shared by `CSVWriter` and
/// `CSVReader` so the two cannot disagree (docs/fidelity.md, "Export and
/// import"): a quoted cell is always text; an unquoted one is NULL when
/// empty, a BLOB when it is `\x` and hex digits, an INTEGER or REAL when it is
/// a number in the shortest form that reads back the same, and text otherwise.
enum CSVCell {
    /// What starts a BLOB's cell: `\x00ff` is the bytes 00 FF.
    static let hexPrefix = "\\x"

    /// The value of an unquoted cell.
    static func unquoted(_ text: String) -> FieldValue {
        if text.isEmpty { return .null }
        if text.hasPrefix(hexPrefix), let data = hexData(text.utf8.dropFirst(2)) { return .data(data) }
        if let integer = Int64(text), String(integer) == text { return .int(integer) }
        if text.contains(where: { $0 == "." || $0 == "e" }), let real = Double(text), real.isFinite, String(real) == text {
            return .double(real)
        }
        return .text(text)
    }

    /// The bytes an even number of hex digits spell, or nil.
    private static func hexData(_ digits: Substring.UTF8View) -> Data? {
        guard digits.count % 2 == 0 else { return nil }
        var data = Data(capacity: digits.count / 2)
        var high: UInt8?
        for byte in digits {
            guard let nibble = HexDigit.value(byte) else { return nil }
            if let h = high {
                data.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return data
    }
}
