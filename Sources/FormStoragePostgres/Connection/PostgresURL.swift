import FormBasics

/// A libpq URL (`postgres://user:password@host/db?…`) as text may show it.
public enum PostgresURL {
    /// True for a libpq URL (`postgres://…`, `postgresql://…`).
    public static func isURL(_ location: String) -> Bool {
        let lowered = location.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    /// The URL without its password (`postgres://app@db/app`), in the user
    /// information or as a `password=` query parameter; anything else as it is.
    public static func withoutPassword(_ location: String) -> String {
        guard let (scheme, at) = userInformation(location) else { return location }
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

    private static func isPassword(_ parameter: Substring) -> Bool { parameter.lowercased().hasPrefix("password=") }

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
            return found + queryParameters(location).filter(isPassword).map { String($0.dropFirst("password=".count)) }
        }
        return location.split(whereSeparator: \.isWhitespace).filter(isPassword).map { word in
            let value = word.dropFirst("password=".count)
            return String(value.hasPrefix("'") && value.hasSuffix("'") && value.count >= 2 ? value.dropFirst().dropLast() : value)
        }
    }
}
