import FormBasics
import FoundationEssentials
import FormStorage

/// Users for `formstore serve --users FILE`: one `name:salt:hash` a line,
/// the hash SHA-256 iterated `PasswordFile.rounds` times over the salt and
/// password (hex), `#` comments. `formstore serve --hash-password NAME`
/// writes a line from a password read on stdin.
struct PasswordFile: Sendable {
    static let rounds = 2_000
    private var users: [String: (salt: String, hash: String)] = [:]

    /// - throws: `CLIError.notFound` for a missing file, `CLIError.validation` for a malformed line.
    init(path: String) throws {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw CLIError.notFound("no password file at \(path)")
        }
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingSpaces()
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let parts = trimmed.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, parts[2].count == 64 else {
                throw CLIError.validation("\(path):\(number + 1): expected name:salt:hash")
            }
            users[parts[0]] = (parts[1], parts[2].lowercased())
        }
        guard !users.isEmpty else { throw CLIError.validation("\(path) names no user") }
    }

    func check(user: String, password: String) -> Bool {
        guard let entry = users[user] else { return false }
        return constantTimeEqual(Self.hash(password, salt: entry.salt), entry.hash)
    }

    /// The iterated, salted hash of a password.
    static func hash(_ password: String, salt: String) -> String {
        var digest = SHA256.hash(Array((salt + ":" + password).utf8))
        for _ in 1..<rounds { digest = SHA256.hash(digest + Array(salt.utf8)) }
        return digest.hexadecimal()
    }

    /// A line for the file, with a fresh salt.
    static func line(user: String, password: String) -> String {
        let salt = String(WebVisitors.randomToken().prefix(32))
        return "\(user):\(salt):\(hash(password, salt: salt))"
    }
}
