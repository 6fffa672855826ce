import Foundation
@testable import FormCore

/// Reads the repository's `Fixtures/` folder, found from this file's path.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // Support
        .deletingLastPathComponent()   // FormCoreTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // repository
        .appendingPathComponent("Fixtures")

    static func formData(_ name: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent("forms/\(name).json"))
    }

    static func form(_ name: String) throws -> Form {
        try FormSpec.decode(formData(name))
    }
}

/// A fixed moment for rules that look at the date (maxFutureDays).
let testNow = Date(timeIntervalSince1970: 1_700_000_000)   // 2023-11-14

func date(_ text: String) -> Date {
    DateText.parse(text, format: "yyyy-MM-dd")!
}
