import FormBasics
@testable import FormCore
import Foundation
import Testing

/// The hand-written date formats (no DateFormatter, no ICU): what a person
/// types in a form's format is read strictly and written back the same way.
@Suite struct DateTextTests {
    static func day(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ min: Int = 0, _ s: Int = 0) -> Date {
        Date(timeIntervalSince1970: Double(ISO8601.daysFromCivil(y, m, d) * 86_400 + h * 3600 + min * 60 + s))
    }

    @Test func theFormatsFormsUseReadAndWriteBack() {
        let cases: [(format: String, text: String, date: Date)] = [
            ("MM/dd/yyyy", "12/31/1999", Self.day(1999, 12, 31)),
            ("dd.MM.yyyy HH:mm", "01.02.2024 13:45", Self.day(2024, 2, 1, 13, 45)),
            ("yyyy-MM-dd HH:mm:ss", "2024-02-29 23:59:58", Self.day(2024, 2, 29, 23, 59, 58)),
            ("HH:mm:ss", "07:08:09", Self.day(1970, 1, 1, 7, 8, 9)),
            ("yyyyMMdd", "20240131", Self.day(2024, 1, 31)),
            ("MMM d, yyyy", "Mar 5, 2024", Self.day(2024, 3, 5)),
            ("EEEE, MMMM d, yyyy", "Tuesday, March 5, 2024", Self.day(2024, 3, 5)),
            ("h:mm a", "1:05 PM", Self.day(1970, 1, 1, 13, 5)),
            ("yyyy-MM-dd'T'HH:mm", "2024-01-02T03:04", Self.day(2024, 1, 2, 3, 4)),
        ]
        for c in cases {
            #expect(DateText.parse(c.text, format: c.format) == c.date, "\(c.format)")
            #expect(DateText.format(c.date, format: c.format) == c.text, "\(c.format)")
        }
    }

    @Test func aFormatWithSecondsTakesATimeWithout() {
        #expect(DateText.parse("12:34", format: "HH:mm:ss") == Self.day(1970, 1, 1, 12, 34))
        #expect(DateText.parse("2024-01-02 12:34", format: "yyyy-MM-dd HH:mm:ss") == Self.day(2024, 1, 2, 12, 34))
    }

    /// A fraction of a second the date holds is shown after the seconds of a
    /// format without one, and read back from there: what is shown is what
    /// is held, so typing it back is no change and typing it away is one.
    @Test func aFractionOfASecondIsShownAfterTheSeconds() {
        let half = Self.day(2024, 3, 10, 8).addingTimeInterval(0.5)
        #expect(DateText.format(half, format: "yyyy-MM-dd HH:mm:ss") == "2024-03-10 08:00:00.500")
        #expect(DateText.parse("2024-03-10 08:00:00.500", format: "yyyy-MM-dd HH:mm:ss") == half)
        #expect(DateText.parse("2024-03-10 08:00:00.5", format: "yyyy-MM-dd HH:mm:ss") == half)
        let micros = Self.day(1970, 1, 1, 10).addingTimeInterval(0.123456)
        #expect(DateText.format(micros, format: "HH:mm:ss") == "10:00:00.123456")
        #expect(DateText.format(Self.day(2024, 3, 10, 8), format: "yyyy-MM-dd HH:mm:ss") == "2024-03-10 08:00:00")
        // A format without seconds, or with its own fraction, is as it was.
        #expect(DateText.format(half, format: "HH:mm") == "08:00")
        #expect(DateText.format(half, format: "HH:mm:ss.S") == "08:00:00.5")
        #expect(DateText.parse("08:00:00.", format: "HH:mm:ss") == nil)
    }

    @Test func whatIsNoDateInTheFormatIsRefused() {
        for (text, format) in [("02/30/2024", "MM/dd/yyyy"), ("13/01/2024", "MM/dd/yyyy"), ("12/31/1999x", "MM/dd/yyyy"),
                               ("12-31-1999", "MM/dd/yyyy"), ("24:00", "HH:mm"), ("12:60", "HH:mm"), ("", "MM/dd/yyyy"),
                               ("2023-02-29", "yyyy-MM-dd"), ("1\u{05BF}/01/2024", "MM/dd/yyyy"), ("0:30 PM", "h:mm a"),
                               ("2024", "yyyy QQQ")] {
            #expect(DateText.parse(text, format: format) == nil, "\(text) in \(format)")
        }
    }

    @Test func twoDigitYearsFallInTheCenturyAroundNow() {
        let thisYear = Calendar(identifier: .gregorian).component(.year, from: Date())
        let parsed = DateText.parse("01/02/\(String(thisYear % 100).leftPadded(to: 2))", format: "MM/dd/yy")
        #expect(parsed == Self.day(thisYear, 1, 2))
        #expect(DateText.format(Self.day(1999, 1, 2), format: "MM/dd/yy") == "01/02/99")
    }
}

/// A time finer than a date holds is refused, never rounded.
@Suite struct DateFractionTests {
    @Test func theDigitsAfterTheSecondsAreCounted() {
        #expect(DateText.fractionDigits("2024-01-02 10:00:00.1234567") == 7)
        #expect(DateText.fractionDigits("10:00:00.5") == 1)
        #expect(DateText.fractionDigits("2024-01-02 10:00:00") == 0)
        #expect(DateText.fractionDigits("1.5") == 0)
        #expect(DateText.fractionDigits("10:00.123") == 0)
    }

    @Test func aTypedTimeFinerThanAMicrosecondIsRefused() {
        let at = Field(key: "at", label: "At", kind: .datetime)
        #expect((try? at.parse("2024-01-02 10:00:00.123456").get()) != nil)
        guard case .failure(let error) = at.parse("2024-01-02 10:00:00.1234567") else {
            Issue.record("seven digits were rounded"); return
        }
        #expect(error.message == "At keeps time to the microsecond: at most 6 digits after the seconds")
    }

    @Test func aBareTimeIsNoDateAndTimeUnlessOneIsHeld() throws {
        let at = Field(key: "at", label: "At", kind: .datetime)
        let time = try #require(ISO8601.parse("10:30"))
        #expect(at.whatWouldBeCutOff(time, given: "10:30", stored: .null)?.message
                == "At holds a date and time: \"10:30\" has no day (type the date too)")
        #expect(at.whatWouldBeCutOff(time, given: "10:30", stored: .date(Date(timeIntervalSince1970: 3600))) == nil)
    }
}
