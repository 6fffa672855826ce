import FormStoragePostgres

extension GlobalOptions {
    /// True for a libpq URL (`postgres://…`, `postgresql://…`): the database
    /// is PostgreSQL (`PostgresFormStore`), not a SQLite file.
    static func isPostgresURL(_ location: String) -> Bool { PostgresURL.isURL(location) }

    /// The database as messages name it: the path, or a PostgreSQL URL
    /// without its password (`postgres://app@db/app`), which must never be printed.
    var shownDatabase: String { PostgresURL.withoutPassword(databasePath) }
}
