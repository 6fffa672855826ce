import FormBasics
public import FormCore
public import FoundationEssentials

/// Form specs kept in the database (`formstore_forms`, made by `init` and the
/// store's migrations), as `FormStore` keeps them on SQLite: a database can
/// carry its forms, and every service instance reads the same ones.
extension PostgresFormStore {
    /// Stores (or replaces) a form's JSON spec under its name.
    ///
    /// - throws: `PostgresError`, such as a missing `formstore_forms` when the
    ///   store was opened without its migrations.
    public func storeSpec(of form: Form) throws {
        let spec = String(decoding: try FormSpec.encode(form), as: UTF8.self)
        try pool.write { conn in
            _ = try conn.execute("""
                INSERT INTO formstore_forms (name, spec, updated_at) VALUES ($1, $2, $3)
                ON CONFLICT (name) DO UPDATE SET spec = excluded.spec, updated_at = excluded.updated_at
                """, [form.name, spec, ISO8601.dateTime(Date())])
        }
    }

    /// The stored specs, by name, as JSON; none when FormStore's tables were never added.
    ///
    /// Only a database FormStore initialised (it holds `formstore_migrations`)
    /// is read: a `formstore_forms` table someone else made could rename
    /// tables or unmask passwords (issue 20), so it is never read. One query.
    public func storedSpecs() throws -> [(name: String, spec: Data)] {
        try pool.read { conn in
            let present = try conn.execute("""
                SELECT pg_catalog.to_regclass('formstore_migrations') IS NOT NULL
                   AND pg_catalog.to_regclass('formstore_forms') IS NOT NULL
                """)
            guard present.text(row: 0, column: 0) == "t" else { return [] }
            let result = try conn.execute("SELECT name, spec FROM formstore_forms ORDER BY name")
            return (0..<result.rowCount).map { row in
                (name: result.text(row: row, column: 0) ?? "", spec: Data((result.text(row: row, column: 1) ?? "").utf8))
            }
        }
    }
}
