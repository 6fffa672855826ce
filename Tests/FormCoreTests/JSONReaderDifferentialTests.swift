import Foundation
import FormStoreTestSupport
import Testing
@testable import FormCore

/// The JSON reader against Foundation's `JSONSerialization` on mutated
/// documents: where both read a text they read the same values, and where
/// they disagree on whether it is JSON, the difference is one of those the
/// reader means to have (a duplicate key, an unpaired surrogate).
@Suite struct JSONReaderDifferentialTests {
    static let seeds = [
        #"{"a": [1, -2.5e3, true, false, null], "b": {"c": "d\u00e9\n\"x\""}, "e": 0.1}"#,
        #"[{"k": "v"}, [], {}, "", 12345678901234567, -0, 1E-7, "\ud83d\ude00"]"#,
        #"{"name": "Ann", "age": 41, "tags": ["x", "y"], "nested": {"deep": [[[]]]}}"#,
        #""just a string with \\ and \/ and \t""#,
        #"[0, 1.0, 1e2, 1E+2, -1e-2, 123.456e-78, 9007199254740993]"#,
    ]
    static let alphabet = Array(#"{}[]":,\ -+.0123456789eEtrufalsn/bfnrtu"#.utf8) + [0x09, 0x0A, 0x0D, 0x00, 0xC3, 0xA9, 0xFF, 0x80]

    /// One random edit: a byte inserted, removed or replaced, or a span duplicated.
    static func mutate(_ bytes: [UInt8], _ rng: inout SplitMix) -> [UInt8] {
        var out = bytes
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let at = out.isEmpty ? 0 : Int.random(in: 0..<out.count, using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: out.insert(alphabet.randomElement(using: &rng)!, at: at)
            case 1: if !out.isEmpty { out.remove(at: at) }
            case 2: if !out.isEmpty { out[at] = alphabet.randomElement(using: &rng)! }
            default:
                let end = min(out.count, at + Int.random(in: 1...8, using: &rng))
                out.insert(contentsOf: out[at..<end], at: at)
            }
        }
        return out
    }

    /// Foundation's reading of the same value, to compare with.
    static func same(_ node: JSONNode, _ any: Any) -> Bool {
        switch node {
        case .null: return any is NSNull
        case .bool(let b): return (any as? Bool) == b
        case .number(let d, let integer):
            guard let n = any as? NSNumber else { return false }
            if let integer { return n.int64Value == integer || n.doubleValue == Double(integer) }
            // Past what a Double holds exactly, Foundation reads a Decimal, whose
            // Double is a few units off in the last place; the reader's is strtod's.
            if n is NSDecimalNumber { return abs(n.doubleValue - d) <= abs(d) * 1e-14 }
            return n.doubleValue == d
        case .string(let s): return (any as? String) == s
        case .array(let items):
            guard let list = any as? [Any], list.count == items.count else { return false }
            return zip(items, list).allSatisfy { same($0, $1) }
        case .object(let members):
            guard let dict = any as? [String: Any], dict.count == members.count else { return false }
            return members.allSatisfy { member in dict[member.key].map { same(member.value, $0) } ?? false }
        }
    }

    @Test func mutatedDocumentsReadAsFoundationReadsThem() throws {
        var rng = SplitMix(state: 20261204)
        var disagreements: [String] = []
        for round in 0..<20_000 {
            let seed = Array(Self.seeds[round % Self.seeds.count].utf8)
            let text = Self.mutate(seed, &rng)
            let ours: Result<JSONNode, JSONSyntaxError> = Result { () throws(JSONSyntaxError) in try JSONReader.parse(text) }
            let theirs = try? JSONSerialization.jsonObject(with: Data(text), options: [.fragmentsAllowed])
            let shown = String(decoding: text, as: UTF8.self)
            switch (ours, theirs) {
            case (.success(let node), let any?):
                if !Self.same(node, any) { disagreements.append("values differ: \(shown)") }
            case (.success, nil):
                disagreements.append("only ours reads: \(shown)")
            case (.failure(let error), _?):
                // Refused on purpose, where Foundation takes the last of two keys, a lone
                // surrogate, or a comma before `]` or `}` (RFC 8259 has none there).
                let trailingComma = shown.replacing(/,\s*[\]}]/, with: "") != shown
                if !trailingComma && !["duplicate key", "unpaired surrogate"].contains(where: { error.message.hasPrefix($0) }) {
                    disagreements.append("only Foundation reads (\(error.message)): \(shown)")
                }
            case (.failure, nil):
                break
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count): \(disagreements.prefix(15).joined(separator: "\n"))")
    }
}
