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
        guard isURL(location), let scheme = location.firstRange(of: "://") else { return location }
        let rest = location[scheme.upperBound...]
        // The user information ends at the last '@' before the path or the query.
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var shown = location
        if let at = rest[..<authorityEnd].lastIndex(of: "@") {
            let user = rest[..<at].split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
            shown = String(location[..<scheme.upperBound]) + user + String(rest[at...])
        }
        // A password given as a query parameter goes too.
        if let query = shown.firstIndex(of: "?") {
            let parameters = shown[shown.index(after: query)...].split(separator: "&")
                .filter { !$0.lowercased().hasPrefix("password=") }
            shown = String(shown[..<query]) + (parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&"))
        }
        return shown
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
        var found: [String] = []
        if isURL(location), let scheme = location.firstRange(of: "://") {
            let rest = location[scheme.upperBound...]
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@") {
                let user = rest[..<at].split(separator: ":", maxSplits: 1)
                if user.count == 2 { found.append(String(user[1])) }
            }
            if let query = location.firstIndex(of: "?") {
                for parameter in location[location.index(after: query)...].split(separator: "&")
                where parameter.lowercased().hasPrefix("password=") {
                    found.append(String(parameter.dropFirst("password=".count)))
                }
            }
        } else {
            for word in location.split(whereSeparator: \.isWhitespace) where word.lowercased().hasPrefix("password=") {
                var value = word.dropFirst("password=".count)
                if value.hasPrefix("'"), value.hasSuffix("'"), value.count >= 2 { value = value.dropFirst().dropLast() }
                found.append(String(value))
            }
        }
        return found
    }
}
