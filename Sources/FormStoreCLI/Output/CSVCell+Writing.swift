import FormCore

/// CSV cells written as bytes, for `CSVWriter` and for an export's cells read
/// in place: the one place a cell's quoting and formula guard are decided
/// (the table in `CSVWriter`'s comment; docs/fidelity.md, "CSV").
extension CSVCell {
    /// What starts a text cell a spreadsheet would run as a formula
    /// (`=HYPERLINK(…)`, `+1+cmd|…`): all ASCII, so the first byte tells.
    static func startsFormula(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch bytes.first {
        case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"),
             UInt8(ascii: "\t"), UInt8(ascii: "\r"): return true
        default: return false
        }
    }

    /// A TEXT cell: quoted when RFC 4180 needs it or when unquoted it would
    /// read back as NULL, a number or a BLOB; a `'` in front of a formula
    /// when `protectsFormulas`. `bytes` must be valid UTF-8.
    static func appendText(_ bytes: UnsafeBufferPointer<UInt8>, protectsFormulas: Bool, to out: inout [UInt8]) {
        let protects = protectsFormulas && startsFormula(bytes)
        if !protects && !needsQuotes(bytes) && readsAsOtherThanText(bytes) {
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: bytes)
            out.append(UInt8(ascii: "\""))
            return
        }
        appendQuotedIfNeeded(bytes, prefixedWithQuote: protects, to: &out)
    }

    /// A cell as RFC 4180 writes it (a header, a kind-less `true`): quoted
    /// when empty or when it holds a comma, a quote or a line break; a `'`
    /// in front of a formula when `protectsFormulas`.
    static func appendPlain(_ bytes: UnsafeBufferPointer<UInt8>, protectsFormulas: Bool, to out: inout [UInt8]) {
        appendQuotedIfNeeded(bytes, prefixedWithQuote: protectsFormulas && startsFormula(bytes), to: &out)
    }

    /// A BLOB cell: `\x` and lower-case hex, unquoted.
    static func appendBlob(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        out += hexPrefix.utf8
        ValueBytes.appendHex(bytes, to: &out)
    }

    private static func appendQuotedIfNeeded(_ bytes: UnsafeBufferPointer<UInt8>, prefixedWithQuote: Bool,
                                             to out: inout [UInt8]) {
        guard (bytes.isEmpty && !prefixedWithQuote) || needsQuotes(bytes) else {
            if prefixedWithQuote { out.append(UInt8(ascii: "'")) }
            out.append(contentsOf: bytes)
            return
        }
        out.append(UInt8(ascii: "\""))
        if prefixedWithQuote { out.append(UInt8(ascii: "'")) }
        for byte in bytes {
            if byte == UInt8(ascii: "\"") { out.append(byte) }
            out.append(byte)
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Holds a comma, a quote or a line break.
    private static func needsQuotes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
    }

    /// True when `unquoted` would read the cell as something other than this
    /// text. Decided on the bytes where that is certain (most text holds a
    /// byte no number or BLOB has); else by `unquoted` itself.
    private static func readsAsOtherThanText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first else { return true }
        if first == UInt8(ascii: "\\") { return bytes.count > 1 && bytes[1] == UInt8(ascii: "x") && readsBack(bytes) }
        var fraction = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"): continue
            case UInt8(ascii: "."), UInt8(ascii: "e"): fraction = true
            default: return false
            }
        }
        guard !fraction, bytes.count < 19 else { return readsBack(bytes) }
        // An INTEGER reads back only in its canonical form: `-`? and digits, no leading zero.
        let digits = first == UInt8(ascii: "-") ? UnsafeBufferPointer(rebasing: bytes.dropFirst()) : bytes
        guard let lead = digits.first, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return false
        }
        return lead != UInt8(ascii: "0") || (digits.count == 1 && first != UInt8(ascii: "-"))
    }

    private static func readsBack(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        return unquoted(text) != .text(text)
    }
}
