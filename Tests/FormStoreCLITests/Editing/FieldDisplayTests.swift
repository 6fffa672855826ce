import FormCore
@testable import FormStoreCLI
import Foundation
import Testing

/// How the edit loops show values a person compares.
@Suite struct FieldDisplayTests {
    /// A conflict over bytes shows each side's bytes in hex (the first 16
    /// of a larger BLOB, with its size): by size alone, two sides of the
    /// same size could not be told apart (`was <blob 3 bytes>, yours <blob 3 bytes>`).
    @Test func aConflictOverBytesShowsThem() {
        let form = Form(name: "b", sections: [Section(fields: [Field(key: "cover", kind: .text), Field(key: "pin", kind: .password)])])
        let small = FieldConflict(field: "cover", base: .data(Data([0, 1, 2])), mine: .data(Data([0xCA, 0xFE, 0x01])),
                                  theirs: .data(Data([0xBE, 0xEF, 0x02])))
        #expect(FieldDisplay.conflict(small, in: form) == "cover: was x'000102', yours x'CAFE01', theirs x'BEEF02'")
        let large = FieldConflict(field: "cover", base: .null, mine: .data(Data(repeating: 0xAB, count: 2048)),
                                  theirs: .data(Data(repeating: 0xCD, count: 20)))
        #expect(FieldDisplay.conflict(large, in: form) == "cover: was (null), yours x'\(String(repeating: "AB", count: 16))…' "
            + "(<blob 2.0 KB>), theirs x'\(String(repeating: "CD", count: 16))…' (<blob 20 bytes>)")
        // A secure field's bytes are never shown.
        let secret = FieldConflict(field: "pin", base: .data(Data([1])), mine: .data(Data([2])), theirs: .data(Data([3])))
        #expect(!FieldDisplay.conflict(secret, in: form).contains("x'"))
    }
}
