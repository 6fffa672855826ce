import Foundation

extension PostgresCluster {
    /// Runs `script` with `psql` against `url`, stopping at the first error,
    /// as an application's migration or a person at the console would.
    static func psql(_ url: String, _ script: String) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("formstore-psql-\(UUID().uuidString).sql")
        try script.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let client = FileManager.default.isExecutableFile(atPath: "/usr/bin/psql") ? "/usr/bin/psql" : try findBinDirectory() + "/psql"
        try run(client, ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-f", file.path])
    }
}
