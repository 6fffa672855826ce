extension Sequence where Element == UInt8 {
    /// The bytes as hexadecimal digits, two per byte: `[0xAB, 0x01]` → `"ab01"`.
    ///
    /// Inlinable so that a caller's copy is specialized: unspecialized, its
    /// first call made the runtime look up the sequence's iterator type,
    /// 0.18 M instructions of a cold `formstore show` (docs/binary.md).
    @inlinable
    public func hexadecimal(uppercase: Bool = false) -> String {
        let digits: [UInt8] = Array((uppercase ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        var out: [UInt8] = []
        out.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension Sequence where Element == UInt8 {
    /// The bytes as SQL writes a BLOB: `x'00FF'`.
    @inlinable
    public var blobLiteral: String { "x'" + hexadecimal(uppercase: true) + "'" }
}
