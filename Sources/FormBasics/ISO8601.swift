public import FoundationEssentials

/// ISO-8601 text for dates, the one way FormStore writes and reads them
/// (SQLite columns, drafts, JSON, exports): fixed layouts in UTC, exact to the
/// millisecond, written and read without formatters, safe from any thread.
///
/// ```swift
/// ISO8601.dateTime(date)            // "2024-05-01T13:04:05.250Z"
/// ISO8601.parse("2024-05-01")       // midnight UTC
/// ```
public enum ISO8601 {
    /// `2024-05-01T13:04:05.250Z`
    public static func dateTime(_ date: Date) -> String {
        let parts = Parts(date)
        return parts.text(length: 24, startingWithYear: true) { bytes in
            parts.writeDay(into: bytes)
            bytes[10] = UInt8(ascii: "T")
            parts.writeTime(into: bytes, at: 11)
            bytes[19] = UInt8(ascii: ".")
            write(parts.millisecond, width: 3, into: bytes, at: 20)
            bytes[23] = UInt8(ascii: "Z")
        }
    }

    /// `2024-05-01` (the UTC day)
    public static func date(_ date: Date) -> String {
        let parts = Parts(date)
        return parts.text(length: 10, startingWithYear: true) { parts.writeDay(into: $0) }
    }

    /// `13:04:05` (the UTC time of day)
    public static func time(_ date: Date) -> String {
        let parts = Parts(date)
        return parts.text(length: 8, startingWithYear: false) { parts.writeTime(into: $0, at: 0) }
    }

    /// Reads `yyyy-MM-ddTHH:mm[:ss[.fff]][Z|±hh:mm|±hhmm|±hh]`; a space may
    /// replace the `T` (SQLite's own format), and the zone may be `±hh` alone
    /// (PostgreSQL's `+00`). Without a zone, UTC.
    public static func parseDateTime(_ text: String) -> Date? {
        var scanner = Scanner(text)
        guard let day = scanner.day(), scanner.take("T") || scanner.take("t") || scanner.take(" "),
              let time = scanner.timeOfDay() else { return nil }
        var offset = 0
        if scanner.take("Z") || scanner.take("z") {
            offset = 0
        } else if let sign = scanner.sign() {
            guard let h = scanner.digits(2) else { return nil }
            let colon = scanner.take(":")
            let m = scanner.digits(2)
            if colon && m == nil { return nil }
            offset = sign * (h * 3600 + (m ?? 0) * 60)
        }
        guard scanner.atEnd else { return nil }
        return time.date(adding: day * 86_400 - offset)
    }

    /// Reads a date and time, else a bare date, else a bare time: whatever of
    /// the three layouts `text` is.
    public static func parse(_ text: String) -> Date? {
        parseDateTime(text) ?? parseDate(text) ?? parseTime(text)
    }

    /// `2024-05-01T13:04:05Z`, with milliseconds only when there are any: for
    /// people and JSON. (Stored text keeps `dateTime`'s fixed width, so it sorts.)
    public static func shortDateTime(_ date: Date) -> String {
        let text = dateTime(date)
        return text.hasSuffix(".000Z") ? String(text.dropLast(5)) + "Z" : text
    }

    /// `date`'s whole second and its fraction to the microsecond (`fractionText`),
    /// taken apart first: a time written to the millisecond rounds
    /// `56.999999` up to `57`, which a fraction added to it would make `57.999999`.
    public static func wholeSecondAndFraction(_ date: Date) -> (second: Date, fraction: String) {
        let micros = (date.timeIntervalSince1970 * 1_000_000).rounded()
        let second = (micros / 1_000_000).rounded(.down)
        return (Date(timeIntervalSince1970: second), fractionText((micros - second * 1_000_000) / 1_000_000))
    }

    /// `2024-05-01T13:04:05.123456Z`: to the microsecond, for a message that
    /// tells apart two times the millisecond shows alike.
    public static func microsecondDateTime(_ date: Date) -> String {
        let (second, fraction) = wholeSecondAndFraction(date)
        return self.date(second) + "T" + time(second) + fraction + "Z"
    }

    /// A fraction of a second as `.500` or `.123456` (the fewest of 3 or 6
    /// digits that hold it to the microsecond); "" for none.
    public static func fractionText(_ fraction: Double) -> String {
        let micros = Int((fraction * 1_000_000).rounded())
        guard micros > 0, micros < 1_000_000 else { return "" }
        let digits = pad(micros, 6)
        return "." + (micros % 1000 == 0 ? String(digits.prefix(3)) : digits)
    }

    /// Reads `yyyy-MM-dd` as midnight UTC.
    public static func parseDate(_ text: String) -> Date? {
        var scanner = Scanner(text)
        guard let day = scanner.day(), scanner.atEnd else { return nil }
        return Date(timeIntervalSince1970: Double(day * 86_400))
    }

    /// Reads `HH:mm[:ss[.fff]]` as that time on 1970-01-01 UTC.
    public static func parseTime(_ text: String) -> Date? {
        var scanner = Scanner(text)
        guard let time = scanner.timeOfDay(), scanner.atEnd else { return nil }
        return time.date(adding: 0)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return value < 0 ? "-" + padded : padded
    }

    /// `value` (0 ≤ value < 10^width) as `width` decimal digits at `offset`.
    private static func write(_ value: Int, width: Int, into bytes: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        var rest = value
        for index in stride(from: offset + width - 1, through: offset, by: -1) {
            bytes[index] = UInt8(truncatingIfNeeded: 48 + rest % 10)
            rest /= 10
        }
    }

    /// A date's UTC calendar fields, rounded to the millisecond.
    ///
    /// Written as bytes into a fixed-width buffer: one timestamp a save's
    /// history row, where concatenating padded strings cost thousands of
    /// instructions (issue 14).
    private struct Parts {
        var year, month, day, hour, minute, second, millisecond: Int

        init(_ date: Date) {
            let totalMilliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
            let (days, msOfDay) = floorDivide(totalMilliseconds, 86_400_000)
            (year, month, day) = civilFromDays(Int(days))
            hour = Int(msOfDay / 3_600_000)
            minute = Int(msOfDay / 60_000 % 60)
            second = Int(msOfDay / 1000 % 60)
            millisecond = Int(msOfDay % 1000)
        }

        /// `length` bytes made by `write`. With `startingWithYear`, the text's
        /// first four bytes are the year's, which is written in full (and
        /// signed) when it has no four digits.
        func text(length: Int, startingWithYear: Bool,
                  _ write: (UnsafeMutableBufferPointer<UInt8>) -> Void) -> String {
            let text = String(unsafeUninitializedCapacity: length) { bytes in
                write(bytes)
                return length
            }
            guard startingWithYear, !(0...9999).contains(year) else { return text }
            return pad(year, 4) + text.dropFirst(4)
        }

        /// `yyyy-MM-dd` at the start (the year's last four digits).
        func writeDay(into bytes: UnsafeMutableBufferPointer<UInt8>) {
            ISO8601.write(abs(year) % 10_000, width: 4, into: bytes, at: 0)
            bytes[4] = UInt8(ascii: "-")
            ISO8601.write(month, width: 2, into: bytes, at: 5)
            bytes[7] = UInt8(ascii: "-")
            ISO8601.write(day, width: 2, into: bytes, at: 8)
        }

        /// `HH:mm:ss` at `offset`.
        func writeTime(into bytes: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
            ISO8601.write(hour, width: 2, into: bytes, at: offset)
            bytes[offset + 2] = UInt8(ascii: ":")
            ISO8601.write(minute, width: 2, into: bytes, at: offset + 3)
            bytes[offset + 5] = UInt8(ascii: ":")
            ISO8601.write(second, width: 2, into: bytes, at: offset + 6)
        }
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b, r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }

    // Howard Hinnant's days-from-civil algorithms (proleptic Gregorian calendar).
    public static func daysFromCivil(_ y: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y - 1 : y
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public static func civilFromDays(_ z: Int) -> (Int, Int, Int) {
        let z = z + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// A time of day as whole seconds plus a decimal fraction, kept apart so the
    /// sum is rounded once (`.123` reads back as the same `Date` it was written from).
    fileprivate struct TimeOfDay {
        var seconds: Int
        var fraction = 0
        var scale = 1

        func date(adding offset: Int) -> Date {
            let whole = Int64(seconds + offset)
            return Date(timeIntervalSince1970: Double(whole * Int64(scale) + Int64(fraction)) / Double(scale))
        }
    }

    /// Reads the fixed-width fields of the layouts above.
    /// Reads fixed-width ASCII fields of date text, byte by byte (also
    /// FormStorage's reader of a column's date layouts).
    public struct Scanner {
        private let bytes: [UInt8]
        private var index = 0

        public init(_ text: String) { bytes = Array(text.utf8) }

        public var atEnd: Bool { index == bytes.count }

        /// The next byte, not taken; `nil` at the end.
        public var next: UInt8? { index < bytes.count ? bytes[index] : nil }

        /// The byte `offset` places ahead, not taken.
        public func peek(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

        public mutating func take(_ character: Character) -> Bool {
            guard index < bytes.count, let ascii = character.asciiValue, bytes[index] == ascii else { return false }
            index += 1
            return true
        }

        /// Takes a run of digits, at most `limit` of them counted into the value;
        /// returns the value of those and how many digits there were in all.
        public mutating func digitRun(counting limit: Int) -> (value: Int, count: Int) {
            var value = 0
            var count = 0
            while index < bytes.count, (48...57).contains(bytes[index]) {
                if count < limit { value = value * 10 + Int(bytes[index] - 48) }
                count += 1
                index += 1
            }
            return (value, count)
        }

        public mutating func sign() -> Int? {
            if take("+") { return 1 }
            if take("-") { return -1 }
            return nil
        }

        public mutating func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += count
            return value
        }

        /// Days since 1970-01-01 of a valid `yyyy-MM-dd`.
        mutating func day() -> Int? {
            guard let y = digits(4), take("-"), let m = digits(2), take("-"), let d = digits(2),
                  (1...12).contains(m), d >= 1, d <= ISO8601.daysIn(month: m, year: y) else { return nil }
            return ISO8601.daysFromCivil(y, m, d)
        }

        /// Seconds since midnight of `HH:mm[:ss[.fff…]]`.
        fileprivate mutating func timeOfDay() -> TimeOfDay? {
            guard let h = digits(2), take(":"), let m = digits(2), h < 24, m < 60 else { return nil }
            var time = TimeOfDay(seconds: h * 3600 + m * 60)
            guard take(":") else { return time }
            guard let s = digits(2), s < 60 else { return nil }
            time.seconds += s
            if take(".") || take(",") {
                var digitCount = 0
                while index < bytes.count, (48...57).contains(bytes[index]) {
                    // Digits past microseconds add nothing a Date can hold.
                    if time.scale < 1_000_000 {
                        time.fraction = time.fraction * 10 + Int(bytes[index] - 48)
                        time.scale *= 10
                    }
                    digitCount += 1
                    index += 1
                }
                guard digitCount > 0 else { return nil }
            }
            return time
        }
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
