import FormStoreTestSupport
import Foundation
import Testing

/// The `formstore-stress` helper (Sources/formstore-stress), started as a child process.
enum StressHelper {
    static func path() throws -> String {
        try #require(builtExecutable("formstore-stress"), "the formstore-stress helper is not built")
    }

    /// Starts the helper; its stderr goes to `errors` so a failure can be shown.
    static func start(_ arguments: [String], errors: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try path())
        process.arguments = arguments
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        try process.run()
        return process
    }

    /// The lines of a log the helper wrote, each split into words.
    static func log(_ path: String) -> [[String]] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    }

    /// A count from the environment (larger runs on request), else the CI default.
    static func count(_ variable: String, default value: Int) -> Int {
        ProcessInfo.processInfo.environment[variable].flatMap(Int.init).map { max(1, $0) } ?? value
    }

    /// `items`: every save writes one token to a, b and c (a torn row shows as a ≠ b ≠ c).
    static func itemsSchema(records: Int) -> String {
        """
        CREATE TABLE items (id INTEGER PRIMARY KEY, a TEXT NOT NULL, b TEXT NOT NULL, c TEXT NOT NULL,
                            n INTEGER NOT NULL);
        WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < \(records))
        INSERT INTO items SELECT i, 't0', 't0', 't0', 0 FROM k;
        """
    }
}
