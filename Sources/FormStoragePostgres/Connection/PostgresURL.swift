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
}
