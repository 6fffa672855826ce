import FormBasics
import FoundationEssentials

/// Dates as text in a fixed format (`MM/dd/yyyy`, `dd.MM.yyyy HH:mm`): the
/// Unicode date-pattern letters, read strictly, in UTC with English names.
///
/// Written by hand rather than through `DateFormatter`, which would bring ICU
/// (most of a 70 MiB binary) for the few letters forms use (docs/binary.md):
/// `y` year, `M` month (`MMM` Jan, `MMMM` January), `d` day, `H` hour 0–23,
/// `h` hour 1–12 with `a` AM/PM, `m` minute, `s` second, `S` fraction,
/// `E` weekday name; text in single quotes and any other character is literal.
/// A format with another letter parses nothing. A format with seconds but no
/// `S` shows a fraction of a second the date has after them (`08:00:00.500`,
/// to the millisecond or the microsecond), and reads one typed there: what
/// is shown is what is held, and typed back it is no change.
enum DateText {
    static func parse(_ text: String, format: String) -> Date? {
        let pattern = Pattern(format)
        if let date = pattern.parse(text) { return date }
        // A format with seconds also takes a time without them: `12:34` is `12:34:00`.
        guard format.contains(":ss") else { return nil }
        return Pattern(format.replacing(":ss", with: "")).parse(text)
    }

    /// How many digits follow the seconds (`10:00:00.1234567` has 7): a
    /// date holds a time to the microsecond, so more than 6 would be rounded.
    static func fractionDigits(_ text: String) -> Int {
        let bytes = Array(text.utf8)
        let isDigit = { (b: UInt8) in b >= 48 && b <= 57 }
        guard bytes.count > 6 else { return 0 }
        for dot in 6..<bytes.count where bytes[dot] == UInt8(ascii: ".") {
            // `hh:mm:ss.`: a colon, then two digits, just before the dot.
            guard bytes[dot - 3] == UInt8(ascii: ":"), isDigit(bytes[dot - 2]), isDigit(bytes[dot - 1]) else { continue }
            return bytes[(dot + 1)...].prefix(while: isDigit).count
        }
        return 0
    }

    static func format(_ date: Date, format: String) -> String {
        Pattern(format).format(date)
    }

    /// The letters a format may use (above); any other parses nothing.
    static let letters: Set<Character> = ["y", "M", "d", "H", "h", "a", "m", "s", "S", "E"]

    /// Why `format` reads no date, or nil: a letter that is no date letter
    /// (`Q` of `QQQQ`), a quote left open, or no date letter at all (`'on'`),
    /// each of which makes a field that shows one text for every date.
    static func formatProblem(_ format: String) -> String? {
        // An empty format is said where the definition is checked ("must not be empty").
        guard !format.trimmingSpaces().isEmpty else { return nil }
        let tokens = Pattern(format).tokens
        for case .field(let letter, _) in tokens where !letters.contains(letter) {
            return "'\(letter)' is no date letter: a format uses y M d H h a m s S E, and text in single quotes"
        }
        if format.filter({ $0 == "'" }).count % 2 == 1 {
            return "a quote is left open: text in a format stands between two single quotes ('' is one)"
        }
        if !tokens.contains(where: { if case .field = $0 { true } else { false } }) {
            return "the format holds no date letter (y M d H h a m s S E), so every date would show as the same text"
        }
        return nil
    }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                             "August", "September", "October", "November", "December"]
    static let dayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// A format split into fields (a letter and how many times it repeats) and literal text.
    struct Pattern {
        enum Token: Equatable {
            case field(Character, Int)
            case literal(String)
        }

        var tokens: [Token] = []
        /// Whether the format has seconds but no fraction (`S`): a fraction follows the seconds where there is one.
        private var fractionFollowsSeconds = false

        init(_ format: String) {
            defer {
                fractionFollowsSeconds = tokens.contains { if case .field("s", _) = $0 { true } else { false } }
                    && !tokens.contains { if case .field("S", _) = $0 { true } else { false } }
            }
            var chars = Array(format)[...]
            while let c = chars.first {
                if c == "'" {
                    chars.removeFirst()
                    if chars.first == "'" { chars.removeFirst(); append("'"); continue } // '' is one quote
                    var quoted = ""
                    while let q = chars.first {
                        chars.removeFirst()
                        if q == "'" {
                            if chars.first == "'" { chars.removeFirst(); quoted.append("'"); continue }
                            break
                        }
                        quoted.append(q)
                    }
                    append(quoted)
                } else if c.isASCII && c.isLetter {
                    var count = 0
                    while chars.first == c { chars.removeFirst(); count += 1 }
                    tokens.append(.field(c, count))
                } else {
                    chars.removeFirst()
                    append(String(c))
                }
            }
        }

        private mutating func append(_ literal: String) {
            if case .literal(let previous)? = tokens.last {
                tokens[tokens.count - 1] = .literal(previous + literal)
            } else {
                tokens.append(.literal(literal))
            }
        }

        private static func isNumeric(_ token: Token?) -> Bool {
            guard case .field(let letter, let count)? = token else { return false }
            return "yHhmsSd".contains(letter) || (letter == "M" && count <= 2)
        }

        func format(_ date: Date) -> String {
            let seconds = date.timeIntervalSince1970
            let whole = seconds.rounded(.down)
            let day = Int((whole / 86_400).rounded(.down))
            let secondOfDay = Int(whole) - day * 86_400
            let (year, month, dayOfMonth) = ISO8601.civilFromDays(day)
            let hour = secondOfDay / 3600, minute = secondOfDay / 60 % 60, second = secondOfDay % 60
            var out = ""
            for token in tokens {
                switch token {
                case .literal(let text): out += text
                case .field(let letter, let count):
                    switch letter {
                    case "y": out += count == 2 ? Self.padded(year % 100, 2) : Self.padded(year, count)
                    case "M":
                        if count >= 4 { out += DateText.monthNames[month - 1] }
                        else if count == 3 { out += String(DateText.monthNames[month - 1].prefix(3)) }
                        else { out += Self.padded(month, count) }
                    case "d": out += Self.padded(dayOfMonth, count)
                    case "H": out += Self.padded(hour, count)
                    case "h": out += Self.padded(hour % 12 == 0 ? 12 : hour % 12, count)
                    case "m": out += Self.padded(minute, count)
                    case "s":
                        out += Self.padded(second, count)
                        if fractionFollowsSeconds { out += ISO8601.fractionText(seconds - whole) }
                    case "S":
                        let fraction = seconds - whole
                        var digits = String(Int((fraction * 1_000_000_000).rounded(.down)))
                        digits = String(repeating: "0", count: max(0, 9 - digits.count)) + digits
                        out += String(digits.prefix(count)) + String(repeating: "0", count: max(0, count - 9))
                    case "a": out += hour < 12 ? "AM" : "PM"
                    case "E":
                        let weekday = ((day % 7) + 7 + 4) % 7 // 1970-01-01 was a Thursday
                        out += count >= 4 ? DateText.dayNames[weekday] : String(DateText.dayNames[weekday].prefix(3))
                    default: out += String(repeating: letter, count: count)
                    }
                }
            }
            return out
        }

        /// Digits read after a second's point as nanoseconds (`5`, one digit: 500000000).
        private static func nanoseconds(_ value: Int, digits: Int) -> Int {
            var scaled = value
            for _ in digits..<9 { scaled *= 10 }
            return scaled
        }


        private static func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }

        func parse(_ text: String) -> Date? {
            var rest = Array(text)[...]
            var year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0, nanoseconds = 0
            var hour12: Int?, pm: Bool?
            for (index, token) in tokens.enumerated() {
                switch token {
                case .literal(let literal):
                    for c in literal {
                        guard rest.first == c else { return nil }
                        rest.removeFirst()
                    }
                case .field(let letter, let count):
                    // Next to another number a field takes exactly its width ("yyyyMMdd").
                    let fixed = Self.isNumeric(tokens[safe: index + 1])
                    func number(_ widest: Int) -> Int? {
                        let limit = fixed ? count : widest
                        var value = 0, taken = 0
                        while taken < limit, let c = rest.first, c.isASCII, let digit = c.wholeNumberValue {
                            value = value * 10 + digit
                            rest.removeFirst()
                            taken += 1
                        }
                        return taken == 0 || (fixed && taken != count) ? nil : value
                    }
                    func name(_ names: [String], short: Bool) -> Int? {
                        for (i, full) in names.enumerated() {
                            let candidate = short ? String(full.prefix(3)) : full
                            if rest.starts(with: candidate) || String(rest.prefix(candidate.count)).lowercased() == candidate.lowercased() {
                                rest.removeFirst(candidate.count)
                                return i
                            }
                        }
                        return nil
                    }
                    switch letter {
                    case "y":
                        let before = rest.count
                        guard let value = number(count == 2 ? 4 : max(count, 4)) else { return nil }
                        year = count == 2 && before - rest.count == 2 ? Self.twoDigitYear(value) : value
                    case "M":
                        if count >= 3 {
                            guard let index = name(DateText.monthNames, short: count == 3) else { return nil }
                            month = index + 1
                        } else {
                            guard let value = number(2) else { return nil }
                            month = value
                        }
                    case "d": guard let value = number(2) else { return nil }; day = value
                    case "H": guard let value = number(2) else { return nil }; hour = value
                    case "h": guard let value = number(2) else { return nil }; hour12 = value
                    case "m": guard let value = number(2) else { return nil }; minute = value
                    case "s":
                        guard let value = number(2) else { return nil }
                        second = value
                        if fractionFollowsSeconds, rest.first == ".", rest.dropFirst().first?.isASCII == true,
                           rest.dropFirst().first?.wholeNumberValue != nil {
                            rest.removeFirst()
                            let before = rest.count
                            var value = 0
                            while before - rest.count < 9, let c = rest.first, c.isASCII, let digit = c.wholeNumberValue {
                                value = value * 10 + digit
                                rest.removeFirst()
                            }
                            nanoseconds = Self.nanoseconds(value, digits: before - rest.count)
                        }
                    case "S":
                        let before = rest.count
                        guard let value = number(9) else { return nil }
                        nanoseconds = Self.nanoseconds(value, digits: before - rest.count)
                    case "a":
                        let word = String(rest.prefix(2)).uppercased()
                        guard word == "AM" || word == "PM" else { return nil }
                        rest.removeFirst(2)
                        pm = word == "PM"
                    case "E":
                        guard name(DateText.dayNames, short: count < 4) != nil else { return nil }
                    default:
                        return nil
                    }
                }
            }
            guard rest.isEmpty else { return nil }
            if let hour12 {
                guard (1...12).contains(hour12) else { return nil }
                hour = hour12 % 12 + ((pm ?? false) ? 12 : 0)
            } else if let pm {
                guard hour <= 12 else { return nil }
                if pm && hour < 12 { hour += 12 }
            }
            guard (1...12).contains(month), (1...ISO8601.daysIn(month: month, year: year)).contains(day),
                  (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
            let days = ISO8601.daysFromCivil(year, month, day)
            let whole = Double(days * 86_400 + hour * 3600 + minute * 60 + second)
            return Date(timeIntervalSince1970: whole + Double(nanoseconds) / 1_000_000_000)
        }

        /// A two-digit year within 80 years before and 20 after today (the
        /// Unicode rule `DateFormatter` followed).
        private static func twoDigitYear(_ value: Int) -> Int {
            let thisYear = ISO8601.civilFromDays(Int((Date().timeIntervalSince1970 / 86_400).rounded(.down))).0
            let start = thisYear - 80
            var year = start - start % 100 + value
            if year < start { year += 100 }
            return year
        }
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
