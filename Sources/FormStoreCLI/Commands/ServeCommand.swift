import FoundationEssentials
import FormCore
#if canImport(Glibc)
import Glibc
#endif

/// `formstore serve`: the forms and records in a browser, and a JSON API.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "serve", access: nil,
        abstract: "Serve the forms and records as web pages and a JSON API.",
        discussion: """
        Pages: / (forms), /forms/NAME (records: search, filter, sort, pages),
        /forms/NAME/KEY (a record, edited as its form's mode says), /forms/NAME/new.
        API: /api/forms/NAME (spec and JSON Schema), /api/forms/NAME/records,
        /api/forms/NAME/records/KEY (ETag; PATCH with If-Match), …/KEY/events.
        A spec's repeating groups are tables of rows on a record's page and
        arrays in the API; --children gives other forms one group per table
        referring to theirs.
        Listens on loopback unless told otherwise; any other address needs
        --token or --users, or serve refuses to start. Stops on Ctrl-C.
        See docs/web.md.
        """,
        options: [
            .value("listen", valueName: "host:port", help: "Where to listen (an IPv4 address; port 0 lets the system choose).",
                   default: "127.0.0.1:8080"),
            .flag("read-only", help: "Open the database read-only and refuse every write."),
            .flag("token", help: "Require a token, made at start and printed once: typed at /login, or sent as 'Authorization: Bearer TOKEN'."),
            .value("users", valueName: "file", help: "Require a user and password from FILE (lines name:salt:hash; see --hash-password)."),
            .value("hash-password", valueName: "name", help: "Print a --users line for NAME with the password read from stdin, and exit."),
            .value("max-body", valueName: "bytes", help: "The largest request body taken (default 16777216).", check: .positiveInteger),
            Common.children,
        ])

    let listen: String
    let readOnly: Bool
    let token: Bool
    let users: String?
    let hashPassword: String?
    let maximumBody: Int?
    let children: Bool

    init(parsing arguments: ParsedArguments) throws {
        listen = arguments.value("listen") ?? "127.0.0.1:8080"
        readOnly = arguments.flag("read-only")
        token = arguments.flag("token")
        users = arguments.value("users")
        hashPassword = arguments.value("hash-password")
        maximumBody = try arguments.positiveInteger("max-body")
        children = arguments.flag("children")
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        if let name = hashPassword {
            let password = readLine(strippingNewline: true) ?? ""
            guard !password.isEmpty, !name.contains(":") else { throw CLIError.usage("--hash-password: a name without ':' and a password on stdin") }
            context.terminal.output.write(PasswordFile.line(user: name, password: password) + "\n")
            return .success
        }
        let (host, port) = try Self.address(listen)
        let authentication: WebVisitors.Authentication
        if let users {
            authentication = .users(try PasswordFile(path: users))
        } else if token {
            authentication = .token(WebVisitors.randomToken())
        } else {
            authentication = .none
        }
        if case .none = authentication, !host.hasPrefix("127.") {
            throw CLIError.usage("--listen \(listen) is not a loopback address: anyone who can reach it could edit the database. "
                                 + "Add --token or --users FILE")
        }
        let workspace = StorageWorkspace(globals: context.globals, access: readOnly ? .read : .writeWithDrafts,
                                         warnings: context.terminal.errors)
        _ = try workspace.store()  // a missing or unreadable database is reported now, not at the first request
        let app = WebApp(workspace: workspace, visitors: WebVisitors(authentication: authentication), readOnly: readOnly,
                         children: children)
        var limits = MicroHTTPServer.Limits()
        if let maximumBody { limits.maximumBody = maximumBody }
        // Blocked before the server's threads start, so they inherit it: the signals come to `sigwait` here.
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        signal(SIGPIPE, SIG_IGN)
        let server = MicroHTTPServer(limits: limits) { app.handle($0) }
        try server.start(host: host, port: port)
        let output = context.terminal.output
        output.write("Serving \(context.globals.shownDatabase) at http://\(host):\(server.port)/\(readOnly ? " (read-only)" : "")\n")
        if case .token(let token) = authentication { output.write("Token: \(token)\n") }
        output.flush()
        var received: Int32 = 0
        sigwait(&signals, &received)
        app.stop()
        server.stop()
        context.say("Stopped.")
        return .success
    }

    /// `HOST:PORT`; `localhost` is 127.0.0.1.
    static func address(_ text: String) throws -> (String, UInt16) {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw CLIError.usage("--listen: expected HOST:PORT (an IPv4 address and a port), got '\(text)'")
        }
        let host = String(text[..<colon])
        // Said as what it is: the server listens on IPv4 only (`[::1]` was "not a loopback address").
        if host.hasPrefix("[") || host.contains(":") {
            throw CLIError.usage("--listen: the server listens on IPv4 only, not on '\(host)': give an IPv4 address "
                                 + "(127.0.0.1:\(port) for the loopback)")
        }
        return (host == "localhost" ? "127.0.0.1" : host, port)
    }
}
