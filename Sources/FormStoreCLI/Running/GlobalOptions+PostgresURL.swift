extension GlobalOptions {
    /// True for a libpq URL (`postgres://…`, `postgresql://…`): the database
    /// is PostgreSQL (`PostgresFormStore`), not a SQLite file.
    static func isPostgresURL(_ location: String) -> Bool {
        let lowered = location.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    /// The database as messages name it: the path, or a PostgreSQL URL
    /// without its password (`postgres://app@db/app`), which must never be printed.
    var shownDatabase: String { Self.withoutPassword(databasePath) }

    static func withoutPassword(_ location: String) -> String {
        guard isPostgresURL(location), let scheme = location.firstRange(of: "://") else { return location }
        let rest = location[scheme.upperBound...]
        // The user information ends at the last '@' before the path or the query.
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return location }
        let user = rest[..<at].split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        var shown = String(location[..<scheme.upperBound]) + user + String(rest[at...])
        // A password given as a query parameter goes too.
        if let query = shown.firstIndex(of: "?") {
            let parameters = shown[shown.index(after: query)...].split(separator: "&")
                .filter { !$0.lowercased().hasPrefix("password=") }
            shown = String(shown[..<query]) + (parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&"))
        }
        return shown
    }
}
