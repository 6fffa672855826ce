extension GlobalOptions {
    /// True for a libpq URL (`postgres://…`, `postgresql://…`), which the
    /// command cannot open yet: read as a SQLite path it would be reported
    /// back whole, password included, as a file that does not exist.
    static func isPostgresURL(_ location: String) -> Bool {
        let lowered = location.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    /// The one-line refusal of a PostgreSQL URL; it never repeats the URL, which may hold a password.
    static var postgresURLRefusal: CLIError {
        .usage("the formstore command opens SQLite databases only; a PostgreSQL URL (postgres://…) "
               + "is for FormStoragePostgres in Swift (PostgresFormStore)")
    }
}
