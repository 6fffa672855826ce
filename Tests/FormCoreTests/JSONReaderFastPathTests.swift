import Testing
@testable import FormCore

/// The reader's quick ways through the usual input (a plain ASCII string, a
/// short decimal): each must read exactly what the general way reads.
@Suite struct JSONReaderFastPathTests {
    private func number(_ literal: String) throws -> Double? {
        guard case .number(let value, integer: nil) = try JSONReader.parse(Array(literal.utf8)) else { return nil }
        return value
    }

    private func string(_ json: [UInt8]) throws -> String? {
        guard case .string(let text) = try JSONReader.parse(json) else { return nil }
        return text
    }

    private func failure(_ json: [UInt8]) -> JSONSyntaxError? {
        do {
            _ = try JSONReader.parse(json)
            return nil
        } catch {
            return error
        }
    }

    @Test func decimalsReadToTheBitAsStrtodReadsThem() throws {
        let literals = [
            "0.125", "-0.0", "0e0", "-0e-5", "0.1", "0.3", "1.5e-3", "-3.5E+2", "1E-22", "1e22", "1e23", "1e-23",
            "123456789012345.6", "999999999999999.0", "9007199254740993.0", "123.456e-10", "0.000000000000000000001",
            "1.00000000000000000000001", "12345678901234567890.5", "1.7976931348623157e308", "2.2250738585072014e-308",
            "4.9e-324", "1e-400", "0.0000000000000000000000000000001e30", "100000000000000000000000e-20",
            "1e0000000000000000000000000000005", "7.0e-0", "-124.875", "3.141592653589793",
        ]
        for literal in literals {
            let read = try number(literal)
            #expect(read?.bitPattern == Double(literal)?.bitPattern, "\(literal)")
        }
    }

    @Test func randomDecimalsReadToTheBitAsStrtodReadsThem() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: UInt64) -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (state >> 33) % bound
        }
        for _ in 0..<5_000 {
            let whole = String(next(1_000_000_000))
            let fraction = String(next(10_000_000_000)).prefix(Int(next(11)) + 1)
            let exponent = next(3) == 0 ? "e\(Int(next(60)) - 30)" : ""
            let literal = (next(2) == 0 ? "-" : "") + whole + "." + fraction + exponent
            #expect(try number(literal)?.bitPattern == Double(literal)?.bitPattern, "\(literal)")
        }
    }

    @Test func numbersOutOfRangeAreStillRefused() {
        #expect(failure(Array("1e400".utf8))?.message == "number out of range")
        #expect(failure(Array("-1.5e99999".utf8))?.message == "number out of range")
        #expect(failure(Array("1.e5".utf8))?.message == "invalid number")
    }

    @Test func stringsReadTheSameWhicheverWayTheyTake() throws {
        #expect(try string(Array(#""plain ASCII, with ~ and DEL \#u{7F}""#.utf8)) == "plain ASCII, with ~ and DEL \u{7F}")
        #expect(try string(Array(#""""#.utf8)) == "")
        #expect(try string(Array(#""plain then \"escaped\" then plain""#.utf8)) == #"plain then "escaped" then plain"#)
        #expect(try string(Array(#""ascii then é then ascii""#.utf8)) == "ascii then é then ascii")
        #expect(try string(Array(#""\ud83d\ude00 after a pair""#.utf8)) == "😀 after a pair")
    }

    @Test func aBadByteAfterAPlainRunIsNamedWhereItIs() {
        let nul = failure(Array(#""abc"#.utf8) + [0] + Array(#"def""#.utf8))
        #expect(nul?.message == "control character in string")
        #expect(nul?.column == 5)
        let invalid = failure(Array(#""abc"#.utf8) + [0xC3] + Array(#"def""#.utf8))
        #expect(invalid?.message == "invalid UTF-8")
        #expect(invalid?.column == 5)
        let unterminated = failure(Array(#""abc"#.utf8))
        #expect(unterminated?.message == "unterminated string")
        #expect(unterminated?.isTruncated == true)
        #expect(failure(Array(#""abc\"#.utf8))?.isTruncated == true)
        #expect(failure(Array(#""abc\q""#.utf8))?.message == #"invalid escape '\q'"#)
    }
}
