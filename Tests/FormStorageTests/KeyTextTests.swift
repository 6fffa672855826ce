import FormCore
import Foundation
import Testing
@testable import FormStorage

/// The key drafts and history are found by is written the same whether the
/// encoder writes it or the plain writer does: a history written before
/// stays reachable.
@Suite struct KeyTextTests {
    func encoded(_ key: RecordKey) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(key), as: UTF8.self)
    }

    @Test(arguments: [
        RecordKey("id", 7), RecordKey("id", .int(-9_223_372_036_854_775_808)), RecordKey("code", "AB-12 x"),
        RecordKey(columns: ["order", "line_no"], values: [.int(1), .int(2)]),
        RecordKey(columns: ["country", "zip"], values: [.text("PL"), .text("30-001")]),
        RecordKey(columns: [], values: []),
    ])
    func aPlainKeyIsWrittenAsTheEncoderWritesIt(key: RecordKey) throws {
        #expect(FormStore.plainKeyText(key) == (try encoded(key)))
        #expect(try FormStore.keyText(key) == (try encoded(key)))
    }

    @Test(arguments: [
        RecordKey("path", "a/b"), RecordKey("name", "Zoë"), RecordKey("quote", "say \"hi\""), RecordKey("price", .double(2.5)),
        RecordKey("line\nbreak", 1), RecordKey("when", .date(Date(timeIntervalSince1970: 0))),
    ])
    func anyOtherKeyIsLeftToTheEncoder(key: RecordKey) throws {
        #expect(FormStore.plainKeyText(key) == nil)
        #expect(try FormStore.keyText(key) == (try encoded(key)))
    }
}
