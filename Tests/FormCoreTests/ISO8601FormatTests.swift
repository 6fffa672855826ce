import FormBasics
import Foundation
import Testing

/// `ISO8601`'s byte-buffer formatting against the string-padding one it
/// replaced (kept here as the reference): the same text for every date.
@Suite struct ISO8601FormatTests {
    /// The formatting before issue 14's change, word for word.
    enum Reference {
        static func dateTime(_ date: Date) -> String {
            let p = parts(date)
            return pad(p.year, 4) + "-" + pad(p.month, 2) + "-" + pad(p.day, 2) + "T"
                + pad(p.hour, 2) + ":" + pad(p.minute, 2) + ":" + pad(p.second, 2)
                + "." + pad(p.millisecond, 3) + "Z"
        }

        static func date(_ date: Date) -> String {
            let p = parts(date)
            return pad(p.year, 4) + "-" + pad(p.month, 2) + "-" + pad(p.day, 2)
        }

        static func time(_ date: Date) -> String {
            let p = parts(date)
            return pad(p.hour, 2) + ":" + pad(p.minute, 2) + ":" + pad(p.second, 2)
        }

        static func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(abs(value))
            let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
            return value < 0 ? "-" + padded : padded
        }

        static func parts(_ date: Date) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
                                            millisecond: Int) {
            let total = Int64((date.timeIntervalSince1970 * 1000).rounded())
            var days = total / 86_400_000, ms = total % 86_400_000
            if ms < 0 { days -= 1; ms += 86_400_000 }
            let (y, m, d) = ISO8601.civilFromDays(Int(days))
            return (y, m, d, Int(ms / 3_600_000), Int(ms / 60_000 % 60), Int(ms / 1000 % 60), Int(ms % 1000))
        }
    }

    static func expectSame(_ date: Date) {
        #expect(ISO8601.dateTime(date) == Reference.dateTime(date))
        #expect(ISO8601.date(date) == Reference.date(date))
        #expect(ISO8601.time(date) == Reference.time(date))
    }

    static func instant(_ y: Int, _ m: Int, _ d: Int, milliseconds: Int64 = 0) -> Date {
        Date(timeIntervalSince1970: Double(Int64(ISO8601.daysFromCivil(y, m, d)) * 86_400_000 + milliseconds) / 1000)
    }

    /// A zone is read as `Z`, `±hh:mm`, `±hhmm` or `±hh` (PostgreSQL writes `+00`, `+05:30`).
    @Test func everyZoneSpellingReadsTheSameInstant() throws {
        let utc = try #require(ISO8601.parseDateTime("2024-01-02T10:00:00Z"))
        for text in ["2024-01-02 12:00:00+02:00", "2024-01-02 12:00:00+0200", "2024-01-02 12:00:00+02",
                     "2024-01-02 10:00:00+00", "2024-01-02 07:30:00-02:30"] {
            #expect(ISO8601.parseDateTime(text) == utc, "\(text)")
        }
        #expect(ISO8601.parseDateTime("2024-01-02 10:00:00+02:") == nil)
        #expect(ISO8601.parseDateTime("2024-01-02 10:00:00+2") == nil)
    }

    @Test func leapDaysAndYearBoundariesReadTheSame() {
        for year in [1, 99, 100, 400, 1600, 1899, 1900, 1969, 1970, 1999, 2000, 2023, 2024, 2100, 2400, 9999] {
            for (m, d) in [(1, 1), (2, 28), (3, 1), (12, 31)] + (ISO8601.daysIn(month: 2, year: year) == 29 ? [(2, 29)] : []) {
                for ms: Int64 in [0, 1, 999, 1000, 59_999, 3_599_999, 43_200_000, 86_399_999] {
                    Self.expectSame(Self.instant(year, m, d, milliseconds: ms))
                }
            }
        }
        #expect(ISO8601.dateTime(Self.instant(2024, 2, 29, milliseconds: 86_399_999)) == "2024-02-29T23:59:59.999Z")
        #expect(ISO8601.dateTime(Self.instant(2000, 1, 1, milliseconds: -1)) == "1999-12-31T23:59:59.999Z")
    }

    @Test func manyDatesReadTheSame() {
        // A fixed walk (no randomness, so a failure repeats) over 10,000 dates
        // from before year 0 to past 9999, each at another day and millisecond,
        // with fractions of a millisecond that round either way.
        var milliseconds: Int64 = -70_000_000_000_000
        while milliseconds < 260_000_000_000_000 {
            let seconds = Double(milliseconds) / 1000
            Self.expectSame(Date(timeIntervalSince1970: seconds))
            Self.expectSame(Date(timeIntervalSince1970: seconds + 0.0004))
            Self.expectSame(Date(timeIntervalSince1970: seconds - 0.0006))
            milliseconds += 32_999_999_977
        }
    }

    @Test func yearsWithoutFourDigitsAreWrittenInFull() {
        Self.expectSame(Self.instant(-1, 12, 31, milliseconds: 5))
        Self.expectSame(Self.instant(0, 1, 1))
        Self.expectSame(Self.instant(10_000, 1, 1, milliseconds: 123))
        #expect(ISO8601.dateTime(Self.instant(10_000, 1, 1, milliseconds: 123)) == "10000-01-01T00:00:00.123Z")
        #expect(ISO8601.date(Self.instant(-42, 3, 4)) == "-0042-03-04")
    }
}
