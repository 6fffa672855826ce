import FormBasics
public import FormCore
public import FoundationEssentials

/// Form specs kept in the database (`formstore_forms`), so a database can carry
/// its forms; for a database FormStore leaves alone, in its sidecar.
extension FormStore {
    /// Stores (or replaces) a form's JSON spec under its name.
    public func storeSpec(of form: Form) throws {
        let spec = String(decoding: try FormSpec.encode(form), as: UTF8.self)
        try prepareOwnTables()
        let schema = ownSchema
        try writeOwnTables { conn in
            try conn.cachedStatement("""
                INSERT INTO \(schema).formstore_forms (name, spec, updated_at) VALUES (?, ?, ?)
                ON CONFLICT (name) DO UPDATE SET spec = excluded.spec, updated_at = excluded.updated_at
                """).execute([form.name, spec, ISO8601.dateTime(Date())])
        }
    }

    /// The stored specs, by name, as JSON; none when FormStore's tables were
    /// never added.
    ///
    /// Only FormStore's own place is read: the database when FormStore
    /// initialised it (it holds `formstore_migrations`), else the sidecar. A
    /// `formstore_forms` table in a database FormStore did not initialise was
    /// put there by someone else, and its specs could rename tables or unmask
    /// passwords (issue 20): it is never read.
    public func storedSpecs() throws -> [(name: String, spec: Data)] {
        guard try attachSidecar(creating: false) else { return [] }
        let schema = sidecar == nil ? "main" : Sidecar.schemaName
        return try database.read { conn in
            guard try conn.cachedStatement("SELECT 1 FROM pragma_table_list WHERE name = 'formstore_forms' AND schema = ?")
                .fetchOne([schema]) != nil else { return [] }
            return try conn.cachedStatement("SELECT name, spec FROM \(quoteIdentifier(schema)).formstore_forms ORDER BY name")
                .fetchAll().map {
                (name: try $0.value(at: 0, as: String.self), spec: Data(try $0.value(at: 1, as: String.self).utf8))
            }
        }
    }
}
