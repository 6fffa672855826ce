import FormBasics
import FoundationEssentials
import FormCore
import FormStorage
import FormWeb

/// `formstore serve`'s pages and JSON API over one workspace. Requests come
/// on the server's threads; the workspace (one SQLite connection) is used by
/// one at a time, behind `lock`.
final class WebApp: @unchecked Sendable {
    let workspace: StorageWorkspace
    let visitors: WebVisitors
    let readOnly: Bool
    /// `serve --children`: a form without groups of its own gets one per
    /// table referring to its table, as `--children` does elsewhere.
    let children: Bool
    /// Wakes the event streams after a commit, this server's or another writer's.
    let commits = CommitSignal()
    /// The sessions of visitors' latest saves, for Undo and Redo (used behind `lock`).
    let undoable = UndoableSaves()
    /// The records the API sent, by tag, for a `PATCH` naming the state it read (used behind `lock`).
    let served = ServedRecords()
    /// The key each visitor last deleted, by visitor and form: the list it lands on says it
    /// once. Said from `?deleted=` alone, any link could put a notice there (used behind `lock`).
    var deletedKeys: [String: String] = [:]
    private let lock = Lock()
    private let stopLock = Lock()
    private var stopped = false
    /// The tables said on stderr to go unwatched (PostgreSQL: no notify trigger for this role).
    var warnedUnwatched: Set<String> = []

    init(workspace: StorageWorkspace, visitors: WebVisitors, readOnly: Bool, children: Bool = false) {
        self.workspace = workspace
        self.visitors = visitors
        self.readOnly = readOnly
        self.children = children
    }

    /// The form named `name`, a spec's groups included, and with `--children`
    /// an inferred form's child tables as groups.
    func form(named name: String) throws -> Form {
        children ? try workspace.form(named: name, children: true) : try workspace.form(named: name)
    }

    /// Whether the server is stopping: event streams end.
    var isStopping: Bool {
        stopLock.lock()
        defer { stopLock.unlock() }
        return stopped
    }

    func stop() {
        stopLock.lock()
        stopped = true
        stopLock.unlock()
        commits.stop()
    }

    /// Runs `body` with the workspace to itself.
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Every request starts here: security headers on every answer, static
    /// files, login, then pages or the API.
    func handle(_ request: HTTPRequest) -> HTTPResponse {
        var response = route(request)
        // The server's own writes do not move `data_version` on its connection: say them here.
        if request.method != "GET" && request.method != "HEAD" { commits.commit() }
        response.headers += [
            ("Content-Security-Policy", WebAssets.contentSecurityPolicy),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "same-origin"),
            ("X-Frame-Options", "DENY"),
        ]
        if !response.headers.contains(where: { $0.0 == "Cache-Control" }) {
            response.headers.append(("Cache-Control", "no-store"))
        }
        return response
    }

    private func route(_ request: HTTPRequest) -> HTTPResponse {
        // Without a login the server listens on loopback only, and a page elsewhere must not reach it
        // through a name it rebinds to 127.0.0.1 (DNS rebinding): such a page sends its own name as Host.
        if !visitors.requiresLogin, let host = request.header("host"), !Self.isLoopbackHost(host) {
            return .text(403, "This server answers to localhost only: the address named the host '\(host)'.")
        }
        let parts = request.segments
        switch (request.method, parts.first) {
        case ("GET", "static"), ("HEAD", "static"):
            return asset(parts.dropFirst().joined(separator: "/"))
        case (_, "login"):
            return login(request)
        case (_, "logout"):
            return logout(request)
        default: break
        }
        guard let user = visitors.user(request) else {
            if parts.first == "api" {
                if case .users = visitors.authentication {
                    return .json(401, Data(#"{"error":"log in: Authorization: Bearer USER:PASSWORD, or Basic"}"#.utf8),
                                 headers: [("WWW-Authenticate", "Basic realm=\"formstore\"")])
                }
                return .json(401, Data(#"{"error":"log in: Authorization: Bearer TOKEN"}"#.utf8),
                             headers: [("WWW-Authenticate", "Bearer")])
            }
            // Logged in, the browser returns to the page it asked for.
            return .redirect(Self.loginAddress(returningTo: request))
        }
        do {
            if parts.first == "api" { return try api(request, Array(parts.dropFirst()), user: user) }
            var response = try page(request, parts, user: user)
            // A logged-in browser is offered the way out on every page.
            if visitors.requiresLogin, response.headers.contains(where: { $0.0 == "Content-Type" && $0.1.hasPrefix("text/html") }) {
                response.body = Data(WebPage.addingLogOutLink(to: String(decoding: response.body, as: UTF8.self)).utf8)
            }
            return response
        } catch {
            return failure(error, api: parts.first == "api")
        }
    }

    /// Whether a Host header names this machine's loopback: `localhost` (or
    /// a name under it), `127.x.y.z` or `[::1]`, with or without a port.
    static func isLoopbackHost(_ header: String) -> Bool {
        var host = header.trimmingSpaces().lowercased()
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            return host[host.index(after: host.startIndex)..<close] == "::1"
        }
        if let colon = host.lastIndex(of: ":") { host = String(host[..<colon]) }
        if host == "localhost" || host.hasSuffix(".localhost") { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    private func asset(_ name: String) -> HTTPResponse {
        switch name {
        case "formstore.css":
            return HTTPResponse(status: 200, headers: [("Content-Type", "text/css; charset=utf-8"), ("Cache-Control", "max-age=300")],
                                body: Data(WebAssets.stylesheet.utf8))
        case "formstore.js":
            return HTTPResponse(status: 200, headers: [("Content-Type", "text/javascript; charset=utf-8"), ("Cache-Control", "max-age=300")],
                                body: Data(WebAssets.script.utf8))
        default:
            return .text(404, "No such file.")
        }
    }

    /// An error as a status: the command's own classification decides what kind it is.
    func failure(_ error: any Error, api: Bool) -> HTTPResponse {
        // "the database", not its path or URL: where the server keeps its data is not the client's to know.
        let classified = CLIError.classifying(error, databasePath: "the database")
        let status: Int
        switch classified.exitCode {
        case .notFound: status = 404
        case .usage: status = 400
        case .validationFailed: status = 422
        // A locked database, and one the server cannot write at all (read-only, full, corrupt):
        // the server's storage, not the request, is what failed.
        case .tryAgain, .storage: status = 503
        default: status = 500
        }
        if api {
            return .json(status, WebApp.errorJSON(classified.message))
        }
        return .html(status, WebPage(title: "Error \(status)", body: "<p class=\"notice conflict\" role=\"alert\">\(HTML.escape(classified.message))</p>\n").render())
    }
}
