import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `formstore serve` under load from Debian's `wrk`: record reads and PATCH
/// saves through the JSON API from many connections (requests/s and p99),
/// an audit that every save answered 200 is in the table (a trigger counts
/// the UPDATEs), and the same table's row JSON served by Datasette (PyPI)
/// in the same run, when it is installed.
struct WebCase {
    let directory: Scratch
    let size: RunSize
    let formstore: String
    static let rows = 1000
    static let connections = 32

    func run() throws -> [ResultRow] {
        guard let wrk = which("wrk") else { throw BenchError("wrk is not installed (apt-get install wrk)") }
        let path = directory.file("web.sqlite")
        try RawConnection(path: path).execute("""
            CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT, age INTEGER);
            CREATE TABLE audit (n INTEGER PRIMARY KEY, person INTEGER);
            CREATE TRIGGER people_audit AFTER UPDATE OF name ON people BEGIN INSERT INTO audit (person) VALUES (NEW.id); END;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(Self.rows))
            INSERT INTO people SELECT i, 'person ' || i, 'p' || i || '@example.com', 20 + i % 50 FROM n;
            """)
        let seconds = size.pick(smoke: 1, quick: 3, full: 10)
        let server = try Server([formstore, "--db", path, "serve", "--listen", "127.0.0.1:0"], ready: "at http://127.0.0.1:")
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)/api/forms/people/records"
        let reads = try load(wrk, seconds: seconds, url: base + "/1", script: nil)
        let patch = directory.file("patch.lua")
        try Self.patchScript.write(toFile: patch, atomically: true, encoding: .utf8)
        let saves = try load(wrk, seconds: seconds, url: base, script: patch)
        let audited = Int(try RawConnection(path: path).text("SELECT count(*) FROM audit")) ?? -1
        var rows = [
            ResultRow("serve: record reads (wrk, \(Self.connections) connections)", formstore: reads.requestsPerSecond, baseline: nil,
                      unit: "req/s", goal: "measured", met: nil, note: "p99 \(String(format: "%.1f", reads.p99 * 1e3)) ms, \(reads.errors) errors"),
            ResultRow("serve: PATCH saves (wrk, \(Self.connections) connections)", formstore: saves.requestsPerSecond, baseline: nil,
                      unit: "req/s", goal: "no save lost",
                      // wrk stops counting with requests still in flight: the server may finish up to one per connection more.
                      met: saves.saved > 0 && audited >= saves.saved && audited - saves.saved <= Self.connections,
                      note: "p99 \(String(format: "%.1f", saves.p99 * 1e3)) ms; \(saves.saved) answered saved, \(audited) UPDATEs in "
                          + "the audit table (up to \(Self.connections) more: in flight when wrk stopped)"),
        ]
        rows.append(try datasette(wrk, path: path, seconds: seconds, formstore: reads))
        return rows
    }

    /// Datasette serving the same table's row JSON, if `datasette` is installed.
    private func datasette(_ wrk: String, path: String, seconds: Int, formstore: Load) throws -> ResultRow {
        let name = "serve: row JSON vs Datasette (req/s)"
        guard let datasette = which("datasette") else {
            return ResultRow(name, formstore: formstore.requestsPerSecond, baseline: nil, unit: "req/s", goal: "≥ 5×", met: nil,
                             note: "Datasette is not installed (pip install datasette)")
        }
        let port = try Self.freePort()
        let server = try Server([datasette, "serve", path, "--host", "127.0.0.1", "--port", String(port)],
                                ready: nil, port: port)
        defer { server.stop() }
        let theirs = try load(wrk, seconds: seconds, url: "http://127.0.0.1:\(port)/web/people/1.json", script: nil)
        let ratio = theirs.requestsPerSecond > 0 ? formstore.requestsPerSecond / theirs.requestsPerSecond : 0
        return ResultRow(name, formstore: formstore.requestsPerSecond, baseline: theirs.requestsPerSecond, unit: "req/s",
                         goal: "≥ 5×", met: ratio >= 5,
                         note: "Datasette p99 \(String(format: "%.1f", theirs.p99 * 1e3)) ms, \(theirs.errors) errors; both in this run")
    }

    struct Load {
        var requestsPerSecond: Double
        var p99: Double
        var errors: Int
        /// PATCHes answered 200 (the script's count).
        var saved: Int
    }

    private func load(_ wrk: String, seconds: Int, url: String, script: String?) throws -> Load {
        let out = directory.file("wrk-\(UUID().uuidString).txt")
        var arguments = [wrk, "-t2", "-c\(Self.connections)", "-d\(seconds)s", "--latency"]
        if let script { arguments += ["-s", script] }
        try formstore_bench.run(arguments + [url], stdout: out)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        func number(after label: String) -> String? {
            guard let range = text.range(of: label) else { return nil }
            return text[range.upperBound...].split(whereSeparator: { $0 == " " || $0 == "\n" }).first.map(String.init)
        }
        let p99 = number(after: "99%").map(Self.seconds) ?? 0
        let errors = (number(after: "Non-2xx or 3xx responses:").flatMap(Int.init) ?? 0)
            + (text.contains("Socket errors") ? 1 : 0)
        return Load(requestsPerSecond: number(after: "Requests/sec:").flatMap(Double.init) ?? 0, p99: p99, errors: errors,
                    saved: number(after: "saved-ok").flatMap(Int.init) ?? 0)
    }

    /// wrk's `12.5ms`, `980.00us`, `1.2s` in seconds.
    static func seconds(_ text: String) -> Double {
        for (unit, scale) in [("us", 1e-6), ("ms", 1e-3), ("s", 1.0)] where text.hasSuffix(unit) {
            return (Double(text.dropLast(unit.count)) ?? 0) * scale
        }
        return Double(text) ?? 0
    }

    /// Each PATCH sets a name no other request sets, so each is a real UPDATE the trigger counts.
    static let patchScript = """
        local threads = {}
        local counter = 0
        function setup(thread)
          counter = counter + 1
          thread:set("tid", counter)
          table.insert(threads, thread)
        end
        function init(args) n = 0; ok = 0 end
        function request()
          n = n + 1
          local id = (n * 7 + tid) % \(rows) + 1
          return wrk.format("PATCH", wrk.path .. "/" .. id, {["Content-Type"] = "application/json"},
                            '{"name": "w' .. tid .. '-' .. n .. '"}')
        end
        function response(status, headers, body)
          if status == 200 then ok = ok + 1 end
        end
        function done(summary, latency, requests)
          local total = 0
          for _, t in ipairs(threads) do total = total + t:get("ok") end
          io.write("saved-ok " .. total .. "\\n")
        end
        """

    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let found = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard found else { throw BenchError("no free port") }
        return UInt16(bigEndian: address.sin_port)
    }
}

/// A server run for the length of a case: started, waited for, stopped.
private final class Server {
    let process = Process()
    let port: UInt16
    let output: String

    /// - parameter ready: text on stdout after which the port follows (`nil`: poll `port` until it answers).
    init(_ arguments: [String], ready: String?, port given: UInt16 = 0) throws {
        output = NSTemporaryDirectory() + "formstore-bench-\(UUID().uuidString).out"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = FileHandle.nullDevice
        try process.run()
        var found: UInt16?
        for _ in 0..<600 where found == nil {
            usleep(50_000)
            if let ready {
                let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
                if let range = text.range(of: ready) {
                    found = UInt16(text[range.upperBound...].prefix { $0.isNumber })
                }
            } else if Server.answers(given) {
                found = given
            }
        }
        guard let found else {
            process.terminate()
            throw BenchError("\(arguments[0]) did not start")
        }
        port = found
    }

    static func answers(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: output)
    }
}
