import FormBasics
import FoundationEssentials
import FormStorage

/// Who is on the other end of a request: browsers by an `HttpOnly`,
/// `SameSite=Strict` cookie, scripts by a bearer token. The cookie holds a
/// random id; the CSRF token a page carries is derived from it and a secret
/// of this server run, so nothing per visitor is kept but the logins.
final class WebVisitors: @unchecked Sendable {
    static let cookieName = "formstore_session"

    /// How requests prove who they are.
    enum Authentication: Sendable {
        /// Loopback only: whoever can connect may edit.
        case none
        /// The token printed at start: typed once at /login, or sent as `Authorization: Bearer`.
        case token(String)
        /// Names and salted password hashes (`PasswordFile`).
        case users(PasswordFile)
    }

    let authentication: Authentication
    private let secret = WebVisitors.randomToken()
    private let lock = Lock()
    /// Cookie ids that logged in, with the user's name.
    private var logins: [String: String] = [:]

    init(authentication: Authentication) {
        self.authentication = authentication
    }

    var requiresLogin: Bool {
        if case .none = authentication { return false }
        return true
    }

    /// 32 random bytes as hex.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in [UInt8.random(in: 0...255, using: &generator)].hexadecimal() }.joined()
    }

    /// The cookie id a request carries, if it is one this server could have made.
    func cookieID(_ request: HTTPRequest) -> String? {
        guard let header = request.header("cookie") else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces() }
            if pair.count == 2, pair[0] == Self.cookieName, pair[1].count == 64, pair[1].allSatisfy(\.isHexDigit) {
                return pair[1]
            }
        }
        return nil
    }

    /// The header that gives a browser its cookie id (a year, so drafts are offered again after a restart).
    static func setCookie(_ id: String) -> (String, String) {
        ("Set-Cookie", "\(cookieName)=\(id); Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000")
    }

    /// The CSRF token of a cookie id: only pages this server drew hold it.
    func csrfToken(for id: String) -> String {
        SHA256.hexDigest(Array((secret + ":csrf:" + id).utf8))
    }

    /// Whether a token matches, compared in constant time.
    func checkCSRF(_ token: String?, id: String?) -> Bool {
        guard let token, let id else { return false }
        return constantTimeEqual(token, csrfToken(for: id))
    }

    /// Who the request is, or `nil` when it must log in first. Without
    /// authentication, everyone is "web"; a bearer token is checked before the cookie.
    func user(_ request: HTTPRequest) -> String? {
        switch authentication {
        case .none:
            return "web"
        case .token(let token):
            if let bearer = bearer(request), constantTimeEqual(bearer, token) { return "token" }
        case .users(let file):
            // `Bearer USER:PASSWORD`, or HTTP's Basic (what `curl -u` sends).
            if let pair = bearer(request) ?? basic(request), let colon = pair.firstIndex(of: ":"),
               file.check(user: String(pair[..<colon]), password: String(pair[pair.index(after: colon)...])) {
                return String(pair[..<colon])
            }
        }
        guard let id = cookieID(request) else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return logins[id]
    }

    /// Checks a login form's answer; on success a new cookie id is logged
    /// in and returned, for the answer to set: the id the browser came with
    /// is never the one logged in, so an id planted in a browser before it
    /// logged in (session fixation) gains nothing. Nil when it did not match.
    func logIn(user: String?, secret given: String) -> String? {
        switch authentication {
        case .none: return nil
        case .token, .users: break
        }
        let id = Self.randomToken()
        return logIn(id: id, user: user, secret: given) ? id : nil
    }

    /// Logs the cookie id out: its requests must log in again.
    func logOut(id: String) {
        lock.lock()
        logins[id] = nil
        lock.unlock()
    }

    private func logIn(id: String, user: String?, secret given: String) -> Bool {
        let name: String
        switch authentication {
        case .none: return true
        case .token(let token):
            guard constantTimeEqual(given, token) else { return false }
            name = "token"
        case .users(let file):
            guard let user, file.check(user: user, password: given) else { return false }
            name = user
        }
        lock.lock()
        logins[id] = name
        lock.unlock()
        return true
    }

    /// `Authorization: Basic …`'s `user:password`, decoded.
    private func basic(_ request: HTTPRequest) -> String? {
        guard let header = request.header("authorization"), header.lowercased().hasPrefix("basic "),
              let data = Data(base64Encoded: String(header.dropFirst("basic ".count)).trimmingSpaces()) else { return nil }
        return String(data: data, encoding: .utf8)
    }

    private func bearer(_ request: HTTPRequest) -> String? {
        guard let header = request.header("authorization"), header.lowercased().hasPrefix("bearer ") else { return nil }
        return String(header.dropFirst("bearer ".count)).trimmingSpaces()
    }
}

/// Equal strings, compared without stopping at the first difference (a token's prefix cannot be timed).
func constantTimeEqual(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8), y = Array(b.utf8)
    guard x.count == y.count else { return false }
    var difference: UInt8 = 0
    for i in x.indices { difference |= x[i] ^ y[i] }
    return difference == 0
}
