import FormBasics
public import FormCore
public import FoundationEssentials

/// The form a column holds its dates in, so a changed date is written back the
/// way the application that owns the database writes it.
///
/// Real databases keep dates as text in several layouts (`2016-07-04`,
/// `2021-01-01 00:00:00`, `2024-05-01T13:04:05.250Z`, `…+02:00`), as Unix
/// epochs (seconds or milliseconds, INTEGER or REAL), as Julian day numbers
/// (REAL, INTEGER at noon) or as a day's digits in one INTEGER (`20240102`, a data warehouse's
/// day key). `detect(_:)` reads the form off one stored value; `encode(_:)`
/// writes a date in that form; `parse(_:)` reads a date from any of them.
///
/// ```swift
/// let format = DateStorageFormat.detect(.text("2021-01-01 00:00:00"))!
/// format.encode(date)                     // .text("2021-01-02 10:00:00")
/// DateStorageFormat.parse(.integer(1_600_000_000))   // 2020-09-13 12:26:40 UTC
/// ```
///
/// See docs/fidelity.md.
public enum DateStorageFormat: Sendable, Hashable {
    /// Text in a layout of ISO 8601 / SQLite's date and time functions.
    case text(TextLayout)
    /// Seconds since 1970-01-01 UTC; `integer` when stored as INTEGER.
    case unixSeconds(integer: Bool)
    /// Milliseconds since 1970-01-01 UTC, as INTEGER; a fraction of a
    /// millisecond as REAL milliseconds.
    case unixMilliseconds
    /// A Julian day number, as REAL (SQLite's `julianday()`).
    case julianDay
    /// A day as the INTEGER yyyymmdd (`20240102`).
    case compactDay

    /// The parts of a date written as text, and how each is written.
    public struct TextLayout: Sendable, Hashable {
        public var hasDate: Bool
        public var hasTime: Bool
        /// Between date and time: `T`, `t` or a space.
        public var separator: UInt8
        public var hasSeconds: Bool
        /// Digits after the decimal point of the seconds (0: none).
        public var fractionDigits: Int
        public var zone: Zone
        /// A space between the time and its offset (`2024-01-02 03:04:05 +0100`,
        /// as Ruby's `Time#to_s` writes one).
        public var zoneSpaced = false
        /// Month and day written without a leading zero (`2024-3-5`).
        public var unpaddedDate = false
        /// The hour written without a leading zero (`7:05:09`).
        public var unpaddedHour = false
        /// Between year, month and day: `-`, or `/` (`2024/03/05`); `.` with the day first.
        public var dateSeparator = UInt8(ascii: "-")
        /// The day first, then the month and the year (`05.03.2024`, as much of Europe writes dates).
        public var dayFirst = false

        public enum Zone: Sendable, Hashable {
            case none
            /// `Z` or `z`, as written.
            case utc(UInt8)
            /// A fixed offset in seconds east of UTC, written `±HH:MM` (`colon`) or `±HHMM`.
            case offset(seconds: Int, colon: Bool)
            /// A whole-hour offset written `±HH` alone (PostgreSQL's `+00`, `-05`).
            case hourOffset(seconds: Int)
        }

        /// `2016-07-04`
        public static let date = TextLayout(hasDate: true, hasTime: false, separator: 0, hasSeconds: false,
                                            fractionDigits: 0, zone: .none)
        /// `13:04:05`
        public static let time = TextLayout(hasDate: false, hasTime: true, separator: 0, hasSeconds: true,
                                            fractionDigits: 0, zone: .none)
        /// `2021-01-01 00:00:00`: SQLite's `CURRENT_TIMESTAMP` and `datetime()`.
        public static let sqlite = TextLayout(hasDate: true, hasTime: true, separator: UInt8(ascii: " "),
                                              hasSeconds: true, fractionDigits: 0, zone: .none)
        /// `2024-05-01T13:04:05.250Z`: what FormStore writes to a column with no other form to follow.
        public static let iso8601 = TextLayout(hasDate: true, hasTime: true, separator: UInt8(ascii: "T"),
                                               hasSeconds: true, fractionDigits: 3, zone: .utc(UInt8(ascii: "Z")))
    }

    /// The form to write when the column gives nothing to follow (it is empty,
    /// or the row's value is NULL): by the field's kind and the declared type.
    public static func `default`(kind: FieldKind, declaredType: String) -> DateStorageFormat {
        switch kind {
        case .date: return .text(.date)
        case .time: return .text(.time)
        default:
            let type = declaredType.uppercased()
            return .text(type.containsUTF8("DATETIME") || type.containsUTF8("TIMESTAMP") ? .sqlite : .iso8601)
        }
    }

    // MARK: Reading

    /// The form of a stored value, or `nil` when it holds no date.
    public static func detect(_ value: DatabaseValue) -> DateStorageFormat? {
        // A number past the years 0 to 9999 as any unit is no date (`1e30`).
        if value.isNumber, parse(value) == nil { return nil }
        switch value {
        case .integer(let i):
            if CompactDay(i) != nil { return .compactDay }
            if isJulianDay(Double(i)) { return .julianDay }
            return Double(i.magnitude) >= Self.millisecondsFrom ? .unixMilliseconds : .unixSeconds(integer: true)
        case .real(let r):
            guard r.isFinite else { return nil }
            if isJulianDay(r) { return .julianDay }
            return r.magnitude >= Self.millisecondsFrom ? .unixMilliseconds : .unixSeconds(integer: false)
        case .text(let text):
            return TextDate(text).map { .text($0.layout) }
        case .null, .blob:
            return nil
        }
    }

    /// The date a stored value holds, whatever its form; `nil` when it holds none.
    /// A number is a date between the years 0 and 9999: past them, as epoch
    /// seconds or milliseconds, it is none (`1e30` was read as one, and
    /// showing it, or writing it in the JSON door, ended the process).
    public static func parse(_ value: DatabaseValue) -> Date? {
        guard let date = numberOrText(value) else { return nil }
        return !value.isNumber || years.contains(date.timeIntervalSince1970) ? date : nil
    }

    /// 0000-01-01 to 9999-12-31 23:59:59.999, in Unix seconds.
    static let years = -62_167_219_200.0 ..< 253_402_300_800.0

    private static func numberOrText(_ value: DatabaseValue) -> Date? {
        switch value {
        case .integer(let i):
            if let day = CompactDay(i) { return day.date }
            if isJulianDay(Double(i)) { return parse(.real(Double(i))) }
            return Double(i.magnitude) >= Self.millisecondsFrom ? Date(timeIntervalSince1970: Double(i) / 1000)
                                                                : Date(timeIntervalSince1970: Double(i))
        case .real(let r):
            guard r.isFinite else { return nil }
            if r.magnitude >= Self.millisecondsFrom { return Date(timeIntervalSince1970: r / 1000) }
            guard isJulianDay(r) else { return Date(timeIntervalSince1970: r) }
            // To the millisecond, as SQLite's date functions read a Julian day: the
            // double's last bits would make 10:00:00 a hair before it (09:59:59 shown).
            let milliseconds = (r * 86_400_000).rounded() - unixEpochJulianDay * 86_400_000
            return Date(timeIntervalSince1970: milliseconds / 1000)
        case .text(let text):
            return TextDate(text)?.date
        case .null, .blob:
            return nil
        }
    }

    /// An epoch of this magnitude or more counts milliseconds: as seconds it
    /// would be past the year 5000, as milliseconds it is after March 1973.
    static let millisecondsFrom: Double = 100_000_000_000

    /// The Julian day of 1970-01-01 00:00 UTC.
    static let unixEpochJulianDay = 2_440_587.5

    /// A number between years 0 and 9999 as a Julian day; anything else is an
    /// epoch. An INTEGER there is one too, a Julian day at noon UTC, as SQLite's
    /// `auto` modifier reads it: a column of NUMERIC affinity (`DATE`) stores
    /// `julianday()`'s whole days so. As Unix seconds it would be a moment
    /// between 20 January and 4 March 1970.
    private static func isJulianDay(_ r: Double) -> Bool { r > 1_721_059.5 && r < 5_373_484.5 }

    // MARK: Writing

    /// `date` in this form.
    public func encode(_ date: Date) -> DatabaseValue {
        switch self {
        case .unixSeconds(let integer):
            let seconds = date.timeIntervalSince1970
            // A fraction of a second is kept: an INTEGER column of whole
            // seconds takes it as a REAL of the same unit, never cut off.
            return integer && seconds == seconds.rounded(.down) ? .integer(Int64(seconds)) : .real(seconds)
        case .unixMilliseconds:
            // A fraction of a millisecond is kept, as REAL milliseconds, never cut off.
            let milliseconds = date.timeIntervalSince1970 * 1000
            let whole = milliseconds.rounded()
            return (milliseconds - whole).magnitude < 0.000_5 ? .integer(Int64(whole)) : .real(milliseconds)
        case .julianDay:
            return .real(date.timeIntervalSince1970 / 86_400 + Self.unixEpochJulianDay)
        case .compactDay:
            // A date with a time of day is not cut to its day: it is written as text with its time.
            let day = CompactDay(date)
            return day.date == date ? .integer(day.value) : .text(TextLayout.date.format(date))
        case .text(let layout):
            return .text(layout.format(date))
        }
    }
}

extension DateStorageFormat.TextLayout {
    /// A date read from text in any layout this type writes (a day, a time
    /// to the microsecond, both, with `Z` or an offset of `±hh:mm`, `±hhmm`
    /// or `±hh`, the offset perhaps after a space), and that layout; nil for other text.
    public static func read(_ text: String) -> (date: Date, layout: Self)? {
        TextDate(text).map { ($0.date, $0.layout) }
    }

    /// `2024-05-01 13:04:05.123456Z`: a date and time to the microsecond, in UTC.
    public static let microseconds = Self(hasDate: true, hasTime: true, separator: UInt8(ascii: " "), hasSeconds: true,
                                          fractionDigits: 6, zone: .utc(UInt8(ascii: "Z")))
    /// `13:04:05.123456`: a time of day to the microsecond.
    public static let timeMicroseconds = Self(hasDate: false, hasTime: true, separator: 0, hasSeconds: true,
                                              fractionDigits: 6, zone: .none)

    /// `date` written in this layout, in its zone (UTC without one). A part
    /// the layout leaves out but the date has is written too, as SQLite's
    /// own functions would (`2024-01-05 10:30:00` where the column's example
    /// held `2024-01-05`, seconds and their fraction where it held fewer):
    /// a date is never written as another.
    public func format(_ date: Date) -> String {
        var offset = 0
        if case .offset(let seconds, _) = zone { offset = seconds }
        if case .hourOffset(let seconds) = zone { offset = seconds }
        let microseconds = Int64((date.timeIntervalSince1970 * 1_000_000).rounded()) + Int64(offset) * 1_000_000
        let (days, microsOfDay) = floorDivide(microseconds, 86_400_000_000)
        return holding(days: days, microsOfDay: microsOfDay).write(days: days, microsOfDay: microsOfDay)
    }

    /// This layout with every part added that the date has and it leaves out.
    private func holding(days: Int64, microsOfDay: Int64) -> Self {
        var layout = self
        if !hasTime && microsOfDay != 0 {
            layout.hasTime = true
            layout.hasSeconds = true
        }
        if !hasDate && days != 0 { layout.hasDate = true }
        if layout.hasDate && layout.hasTime && layout.separator == 0 { layout.separator = UInt8(ascii: " ") }
        guard layout.hasTime else { return layout }
        if !layout.hasSeconds && microsOfDay % 60_000_000 != 0 { layout.hasSeconds = true }
        let fraction = microsOfDay % 1_000_000
        if layout.hasSeconds && fraction != 0 {
            // The fewest digits that hold the fraction: 3, else 6.
            var digits = 0
            var rest = fraction
            while rest != 0 && digits < 6 {
                rest = (rest * 10) % 1_000_000
                digits += 1
            }
            if layout.fractionDigits < digits { layout.fractionDigits = digits <= 3 ? 3 : 6 }
        }
        return layout
    }

    private func write(days: Int64, microsOfDay: Int64) -> String {
        var out = ""
        if hasDate {
            let (y, m, d) = ISO8601.civilFromDays(Int(days))
            let separator = String(UnicodeScalar(dateSeparator))
            let (month, day) = (pad(m, unpaddedDate ? 1 : 2), pad(d, unpaddedDate ? 1 : 2))
            out += dayFirst ? day + separator + month + separator + pad(y, 4) : pad(y, 4) + separator + month + separator + day
        }
        if hasTime {
            if hasDate { out.unicodeScalars.append(Unicode.Scalar(separator)) }
            let seconds = Int(microsOfDay / 1_000_000)
            out += pad(seconds / 3600, unpaddedHour ? 1 : 2) + ":" + pad(seconds / 60 % 60, 2)
            if hasSeconds { out += ":" + pad(seconds % 60, 2) }
            if hasSeconds && fractionDigits > 0 {
                let micros = pad(Int(microsOfDay % 1_000_000), 6)
                out += "." + (fractionDigits <= 6 ? String(micros.prefix(fractionDigits))
                                                  : micros + String(repeating: "0", count: fractionDigits - 6))
            }
            if zoneSpaced && zone != .none { out += " " }
            switch zone {
            case .none: break
            case .utc(let letter): out.unicodeScalars.append(Unicode.Scalar(letter))
            case .offset(let seconds, let colon):
                out += (seconds < 0 ? "-" : "+") + pad(abs(seconds) / 3600, 2) + (colon ? ":" : "")
                    + pad(abs(seconds) / 60 % 60, 2)
            case .hourOffset(let seconds):
                out += (seconds < 0 ? "-" : "+") + pad(abs(seconds) / 3600, 2)
            }
        }
        return out
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return value < 0 ? "-" + padded : padded
    }

    private func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b, r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }
}

/// A date read from text in one of the layouts `TextLayout` writes, with the
/// layout it was read in: `yyyy-MM-dd`, `HH:mm[:ss[.f…]]`, or both joined by
/// `T`, `t` or a space, optionally followed by `Z` or an offset (which may
/// follow a space).
private struct TextDate {
    var date: Date
    var layout: DateStorageFormat.TextLayout

    init?(_ text: String) {
        var scanner = ISO8601.Scanner(text)
        var layout = DateStorageFormat.TextLayout(hasDate: false, hasTime: false, separator: 0, hasSeconds: false,
                                                  fractionDigits: 0, zone: .none)
        var days = 0
        switch Self.datePart(&scanner, &layout) {
        case .invalid:
            return nil
        case .none:
            break
        case .date(let y, let m, let d):
            guard (1...12).contains(m), d >= 1, d <= ISO8601.daysIn(month: m, year: y) else { return nil }
            days = ISO8601.daysFromCivil(y, m, d)
            layout.hasDate = true
            if scanner.atEnd {
                self.init(date: Date(timeIntervalSince1970: Double(days) * 86_400), layout: layout)
                return
            }
            guard let separator = scanner.next, scanner.take("T") || scanner.take("t") || scanner.take(" ") else {
                return nil
            }
            layout.separator = separator
        }
        guard let h = Self.oneOrTwoDigits(&scanner, &layout.unpaddedHour), scanner.take(":"), let minute = scanner.digits(2),
              h < 24, minute < 60 else {
            return nil
        }
        layout.hasTime = true
        var seconds = h * 3600 + minute * 60
        var micros = 0
        if scanner.take(":") {
            guard let s = scanner.digits(2), s < 60 else { return nil }
            seconds += s
            layout.hasSeconds = true
            if scanner.take(".") {
                let (fraction, count) = scanner.digitRun(counting: 6)
                guard count > 0 else { return nil }
                micros = fraction
                for _ in min(count, 6)..<6 { micros *= 10 }
                layout.fractionDigits = count
            }
        }
        var offset = 0
        // An offset after a space; a space and nothing else is no date.
        if scanner.peek(0) == UInt8(ascii: " ") {
            _ = scanner.take(" ")
            layout.zoneSpaced = true
            guard scanner.peek(0) == UInt8(ascii: "+") || scanner.peek(0) == UInt8(ascii: "-") else { return nil }
        }
        if let zone = scanner.next {
            if scanner.take("Z") || scanner.take("z") {
                layout.zone = .utc(zone)
            } else if let sign = scanner.sign() {
                guard let zh = scanner.digits(2), zh < 24 else { return nil }
                let colon = scanner.take(":")
                if !colon && scanner.atEnd {
                    offset = sign * zh * 3600
                    layout.zone = .hourOffset(seconds: offset)
                } else {
                    guard let zm = scanner.digits(2), zm < 60 else { return nil }
                    offset = sign * (zh * 3600 + zm * 60)
                    layout.zone = .offset(seconds: offset, colon: colon)
                }
            }
        }
        guard scanner.atEnd else { return nil }
        let whole = Int64(days) * 86_400 + Int64(seconds - offset)
        self.init(date: Date(timeIntervalSince1970: Double(whole * 1_000_000 + Int64(micros)) / 1_000_000),
                  layout: layout)
    }

    init(date: Date, layout: DateStorageFormat.TextLayout) {
        self.date = date
        self.layout = layout
    }

    private enum DatePart {
        /// The text starts with no date (a time alone).
        case none
        case date(year: Int, month: Int, day: Int)
        /// It starts as a date and is none.
        case invalid
    }

    /// The date the text starts with, its layout noted: four digits and a dash or a
    /// slash (`2024-03-05`, `2024/03/05`), or a day and a month each followed by a dot
    /// (`05.03.2024`). Slashes with the year last (`03/05/2024`) are read by no two
    /// countries the same way: no date, left as the text it is.
    private static func datePart(_ scanner: inout ISO8601.Scanner, _ layout: inout DateStorageFormat.TextLayout) -> DatePart {
        if let separator = scanner.peek(4), separator == UInt8(ascii: "-") || separator == UInt8(ascii: "/") {
            let between = Character(UnicodeScalar(separator))
            guard let y = scanner.digits(4), scanner.take(between), let m = oneOrTwoDigits(&scanner, &layout.unpaddedDate),
                  scanner.take(between), let d = oneOrTwoDigits(&scanner, &layout.unpaddedDate) else { return .invalid }
            layout.dateSeparator = separator
            return .date(year: y, month: m, day: d)
        }
        guard scanner.peek(1) == UInt8(ascii: ".") || scanner.peek(2) == UInt8(ascii: ".") else { return .none }
        guard let d = oneOrTwoDigits(&scanner, &layout.unpaddedDate), scanner.take("."),
              let m = oneOrTwoDigits(&scanner, &layout.unpaddedDate), scanner.take("."), let y = scanner.digits(4)
        else { return .invalid }
        layout.dateSeparator = UInt8(ascii: ".")
        layout.dayFirst = true
        return .date(year: y, month: m, day: d)
    }

    /// A month, day or hour: two digits, or one (`unpadded` then says the layout writes it so).
    private static func oneOrTwoDigits(_ scanner: inout ISO8601.Scanner, _ unpadded: inout Bool) -> Int? {
        let (value, count) = scanner.digitRun(counting: 2)
        guard count == 1 || count == 2 else { return nil }
        if count == 1 { unpadded = true }
        return value
    }
}

/// A day written as the INTEGER yyyymmdd, years 1900 to 2999 (`20240102`).
/// An INTEGER there with a month of 1 to 12 and a day of 1 to 31 is read as
/// one: as Unix seconds it would be a moment between August and December
/// 1970. A day past its month's end runs on into the next month, as SQLite's
/// `julianday()` reads one.
struct CompactDay {
    let value: Int64
    let year: Int64, month: Int64, day: Int64

    /// The range of such days.
    static let first: Int64 = 19000101, last: Int64 = 29991231

    init?(_ value: Int64) {
        guard value >= Self.first, value <= Self.last else { return nil }
        let month = value / 100 % 100, day = value % 100
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        self.value = value
        year = value / 10000
        self.month = month
        self.day = day
    }

    /// The day (UTC) of `date`.
    init(_ date: Date) {
        let (year, month, day) = ISO8601.civilFromDays(Int((date.timeIntervalSince1970 / 86_400).rounded(.down)))
        (self.year, self.month, self.day) = (Int64(year), Int64(month), Int64(day))
        value = self.year * 10000 + self.month * 100 + self.day
    }

    /// Midnight UTC of the day: linear in the day, so one past its month's end runs on.
    var date: Date {
        let days = ISO8601.daysFromCivil(Int(year), Int(month), Int(day))
        return Date(timeIntervalSince1970: Double(days) * 86_400)
    }
}
