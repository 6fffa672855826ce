import FormBasics

/// A libpq URL (`postgres://user:password@host/db?…`) as text may show it.
public enum PostgresURL {
    /// True for a libpq URL (`postgres://…`, `postgresql://…`).
    public static func isURL(_ location: String) -> Bool {
        let lowered = location.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    /// True for a libpq `key=value` connection string (`host=db dbname=app`,
    /// `password = 'a b'`): read as libpq reads one (`parameters(of:)`), every
    /// name one libpq knows.
    public static func isConnectionString(_ location: String) -> Bool {
        guard !isURL(location), let parameters = parameters(of: location), !parameters.isEmpty else { return false }
        return parameters.allSatisfy { connectionKeywords.contains($0.name.lowercased()) }
    }

    /// The keywords of libpq's connection strings a person gives most.
    private static let connectionKeywords: Set<String> = [
        "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "sslmode", "sslrootcert",
        "connect_timeout", "application_name", "options", "service", "target_session_attrs",
    ]

    /// A `key=value` connection string's parameters, as libpq reads them:
    /// space around `=` allowed, a value in single quotes may hold spaces,
    /// and a backslash takes the next character as it is; nil where the text
    /// is not one (a word without `=`, a quote left open).
    static func parameters(of text: String) -> [(name: String, value: String)]? {
        var found: [(name: String, value: String)] = []
        var rest = Substring(text)
        func skipSpace() { rest = rest.drop { $0.isWhitespace } }
        skipSpace()
        while !rest.isEmpty {
            let name = rest.prefix { !$0.isWhitespace && $0 != "=" }
            guard !name.isEmpty else { return nil }
            rest = rest.dropFirst(name.count)
            skipSpace()
            guard rest.first == "=" else { return nil }
            rest = rest.dropFirst()
            skipSpace()
            var value = ""
            if rest.first == "'" {
                rest = rest.dropFirst()
                var closed = false
                while let c = rest.popFirst() {
                    if c == "\\", let next = rest.popFirst() { value.append(next); continue }
                    if c == "'" { closed = true; break }
                    value.append(c)
                }
                guard closed else { return nil }
            } else {
                while let c = rest.first, !c.isWhitespace {
                    rest = rest.dropFirst()
                    if c == "\\", let next = rest.popFirst() { value.append(next); continue }
                    value.append(c)
                }
            }
            found.append((String(name), value))
            skipSpace()
        }
        return found
    }

    /// A connection string shown without its password: the other parameters
    /// as `name=value`, a value quoted where it needs it.
    private static func shown(_ parameters: [(name: String, value: String)]) -> String {
        parameters.filter { $0.name.lowercased() != "password" }.map { parameter in
            let value = parameter.value
            let plain = !value.isEmpty && !value.contains { $0.isWhitespace || $0 == "'" || $0 == "\\" }
            return parameter.name + "=" + (plain ? value
                : "'" + value.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'")
        }.joined(separator: " ")
    }

    /// The URL without its password (`postgres://app@db/app`), in the user
    /// information or as a `password=` query parameter (its name
    /// percent-encoded too, as libpq reads `pass%77ord=`); a libpq `key=value`
    /// string without its `password=` word; anything else as it is.
    public static func withoutPassword(_ location: String) -> String {
        guard let (scheme, at) = userInformation(location) else {
            guard let parameters = parameters(of: location), parameters.contains(where: { $0.name.lowercased() == "password" })
            else { return location }
            return shown(parameters)
        }
        var shown = location
        if let at {
            let user = location[scheme.upperBound..<at].split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
            shown = String(location[..<scheme.upperBound]) + user + String(location[at...])
        }
        // A password given as a query parameter goes too.
        if let query = shown.firstIndex(of: "?") {
            let parameters = queryParameters(shown).filter { !isPassword($0) }
            shown = String(shown[..<query]) + (parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&"))
        }
        return shown
    }

    /// A URL's `://` and the '@' ending its user information (the last one
    /// before the path or the query; nil: none); nil for no URL.
    private static func userInformation(_ location: String) -> (scheme: Range<String.Index>, at: String.Index?)? {
        guard isURL(location), let scheme = location.firstRange(of: "://") else { return nil }
        let rest = location[scheme.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        return (scheme, rest[..<authorityEnd].lastIndex(of: "@"))
    }

    /// The `name=value` members of a URL's query.
    private static func queryParameters(_ location: String) -> [Substring] {
        guard let query = location.firstIndex(of: "?") else { return [] }
        return location[location.index(after: query)...].split(separator: "&")
    }

    /// True for a `password=…` parameter, its name read as libpq reads a
    /// URL's: percent-decoded (`pass%77ord=` is one too).
    private static func isPassword(_ parameter: Substring) -> Bool {
        guard let equals = parameter.firstIndex(of: "=") else { return false }
        let name = parameter[..<equals]
        return (name.percentDecoded() ?? String(name)).lowercased() == "password"
    }

    /// The value of a `name=value` parameter, as written.
    private static func value(of parameter: Substring) -> String {
        parameter.firstIndex(of: "=").map { String(parameter[parameter.index(after: $0)...]) } ?? ""
    }

    /// `message` (libpq's, about `location`) with the location shown without
    /// its password and the password itself nowhere: libpq quotes the part it
    /// could not read (`invalid percent-encoded token: "s3cr%zz"`), which may be it.
    public static func redacting(_ message: String, of location: String) -> String {
        var shown = message.replacing(location, with: withoutPassword(location))
        for password in passwords(in: location) where !password.isEmpty {
            shown = shown.replacing(password, with: "***")
            if let decoded = password.percentDecoded(), !decoded.isEmpty { shown = shown.replacing(decoded, with: "***") }
        }
        return shown
    }

    /// The passwords `location` gives, as written: a URL's in its user
    /// information or a `password=` query parameter, a `key=value` string's `password=`.
    static func passwords(in location: String) -> [String] {
        if let (scheme, at) = userInformation(location) {
            var found: [String] = []
            if let at {
                let user = location[scheme.upperBound..<at].split(separator: ":", maxSplits: 1)
                if user.count == 2 { found.append(String(user[1])) }
            }
            return found + queryParameters(location).filter(isPassword).map(value(of:))
        }
        return (parameters(of: location) ?? []).filter { $0.name.lowercased() == "password" }.map(\.value)
    }
}
