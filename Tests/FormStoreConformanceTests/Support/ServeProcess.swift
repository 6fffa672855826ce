import FormStoreTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `formstore --db LOCATION serve` as a child process on a port the system
/// chose, asked over plain HTTP/1.1 (`Connection: close`, read to the end),
/// and stopped with SIGINT when the test lets go of it.
final class ServeProcess {
    private var pid = pid_t()
    private let scratch: URL
    let port: UInt16

    init(db location: String) throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("formstore-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let output = scratch.appendingPathComponent("out").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let executable = try formstoreBinary()
        let arguments: [String] = [executable, "--db", location, "serve", "--listen", "127.0.0.1:0"]
        let argv = arguments.map { strdup($0) } + [nil]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = scratch.appendingPathComponent("state").path
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        guard posix_spawn(&pid, executable, &actions, nil, argv, envp) == 0 else { throw CocoaError(.executableLoad) }
        var found: UInt16?
        for _ in 0..<400 where found == nil {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            if let range = text.range(of: "at http://127.0.0.1:"), let slash = text[range.upperBound...].firstIndex(of: "/") {
                found = UInt16(text[range.upperBound..<slash])
            } else {
                usleep(25_000)
            }
        }
        port = try #require(found, "serve did not start: \((try? String(contentsOfFile: output, encoding: .utf8)) ?? "")")
    }

    deinit {
        kill(pid, SIGINT)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        try? FileManager.default.removeItem(at: scratch)
    }

    /// One request; the status and the body.
    func request(_ method: String, _ path: String, json: String? = nil) throws -> (status: Int, body: String) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0, "cannot connect to port \(port)")
        let body = Data((json ?? "").utf8)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(body.count)\r\n"
        if json != nil { head += "Content-Type: application/json\r\n" }
        let message = Data((head + "\r\n").utf8) + body
        _ = message.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            received.append(contentsOf: buffer[0..<count])
        }
        let text = String(decoding: received, as: UTF8.self)
        let status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
        let bodyStart = text.range(of: "\r\n\r\n")?.upperBound ?? text.endIndex
        return (status, String(text[bodyStart...]))
    }
}
