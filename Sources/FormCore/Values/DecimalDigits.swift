import FormBasics

extension FieldValue {
    /// The double a stored decimal numeral is, when a double holds it
    /// exactly (`0.1`, `12.50`); nil for one it would make another number
    /// (`12345678901234567890.1234567891`), which is kept as its text, every digit shown.
    public static func decimal(exactly text: String) -> FieldValue? {
        let trimmed = text.trimmingSpaces()
        guard let value = Double(trimmed), value.isFinite, DecimalDigits.holdsExactly(trimmed, value) else { return nil }
        return .double(value)
    }

    /// A whole number as a decimal field holds it: a double up to 2^53, and
    /// past it the integer itself, which a double would make another number
    /// (9007199254740993 would be …992).
    public static func decimal(_ whole: Int64) -> FieldValue {
        whole.magnitude <= 1 << 53 ? .double(Double(whole)) : .int(whole)
    }

    /// An INTEGER and a REAL that are the same whole number (`1` and `1.0`, `0` and `-0.0`):
    /// JSON writes such a REAL as the integer, and either read back is the value held.
    public func isSameWholeNumber(as other: FieldValue) -> Bool {
        switch (self, other) {
        case (.int(let integer), .double(let real)), (.double(let real), .int(let integer)):
            return Int64(exactly: real) == integer
        default:
            return false
        }
    }

    /// Text that is a decimal numeral (`12345678901234567890.1234567891`), as a decimal kept so is.
    public var isDecimalNumeral: Bool {
        guard case .text(let text) = self, !text.isEmpty else { return false }
        return DecimalDigits(text.trimmingSpaces()) != nil
    }
}

/// A decimal numeral's value as its significant digits and a power of ten
/// (`-0.0120` and `-1.2e-2` are both -12 × 10^-3): two numerals are the same
/// number when these are equal, however each is written.
struct DecimalDigits: Equatable {
    var negative = false
    /// No leading or trailing zeros; empty for zero.
    var digits: [UInt8] = []
    var exponent = 0

    /// nil for text that is no decimal numeral (`nan`, `inf`, `1.2.3`).
    init?(_ text: String) {
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") {
            negative = bytes.removeFirst() == UInt8(ascii: "-")
        }
        var afterPoint = false, sawDigit = false
        while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
            bytes.removeFirst()
            if byte == UInt8(ascii: "."), !afterPoint {
                afterPoint = true
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                sawDigit = true
                if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte) }
                if afterPoint { exponent -= 1 }
            } else {
                return nil
            }
        }
        guard sawDigit else { return nil }
        if !bytes.isEmpty {
            bytes.removeFirst()
            guard let power = Int(String(decoding: bytes, as: UTF8.self)) else { return nil }
            exponent += power
        }
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        if digits.isEmpty { (negative, exponent) = (false, 0) }
    }

    /// The whole number the numeral writes (`9007199254740993.0`, `12e2`),
    /// exactly, where it fits an Int64; nil for a fraction or one past it.
    var wholeValue: Int64? {
        guard exponent >= 0, digits.count + exponent <= 19 else { return nil }
        let text = String(decoding: digits, as: UTF8.self) + String(repeating: "0", count: exponent)
        return Int64((negative ? "-" : "") + (text.isEmpty ? "0" : text))
    }

    /// Whether `value`, the double `Double(text)` read, is the number `text`
    /// writes. Any numeral of 15 significant digits or fewer is (a double
    /// holds 15 decimal digits, short of the subnormal range): only a longer
    /// one, or a subnormal, is written out to compare.
    static func holdsExactly(_ text: String, _ value: Double) -> Bool {
        guard let typed = DecimalDigits(text) else { return false }
        // Zero only for a numeral of no digits but zeros: `1e-400` read as 0 lost the number.
        return typed.digits.count <= 15 && (value.isNormal || value == 0 && typed.digits.isEmpty)
            || typed == DecimalDigits(String(value))
    }
}
