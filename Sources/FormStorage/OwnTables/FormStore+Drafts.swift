import FormBasics
public import FormCore
public import FoundationEssentials

/// Drafts: `DraftStore` over the `formstore_drafts` table (Migrations/0002_drafts.sql),
/// in the database or in its sidecar. Only writing a draft creates the sidecar:
/// without one there are no drafts to read or delete.
extension FormStore {
    /// The database's real path: a draft it could not take is offered from the fallback files only here.
    public var draftScope: String? { Sidecar.draftScope(of: database.path) }

    public func writeDraft(_ draft: Draft) throws {
        let payload = String(decoding: try draft.encoded(), as: UTF8.self)
        let recordKey = try draft.recordKey.map(Self.keyText)
        try prepareOwnTables()
        let schema = ownSchema
        try writeOwnTables { conn in
            try conn.cachedStatement("""
                INSERT INTO \(schema).formstore_drafts (id, form, record_key, form_version, payload, created_at, updated_at, owner)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET record_key = excluded.record_key,
                    form_version = excluded.form_version, payload = excluded.payload,
                    updated_at = excluded.updated_at, owner = excluded.owner
                """).execute([draft.id, draft.form, recordKey, draft.formVersion, payload,
                              ISO8601.dateTime(draft.createdAt), ISO8601.dateTime(draft.updatedAt), draft.owner])
        }
    }

    public func draft(id: String) throws -> Draft? {
        try fetchDrafts("WHERE id = ?", [id]).first
    }

    public func drafts(form: String, key: RecordKey?) throws -> [Draft] {
        if let key {
            return try fetchDrafts("WHERE form = ? AND record_key = ?", [form, try Self.keyText(key)])
        }
        return try fetchDrafts("WHERE form = ? AND record_key IS NULL", [form])
    }

    public func drafts(form: String?) throws -> [Draft] {
        if let form { return try fetchDrafts("WHERE form = ?", [form]) }
        return try fetchDrafts("", [])
    }

    public func drafts(form: String, key: RecordKey?, owner: String?) throws -> [Draft] {
        try fetchDrafts("WHERE form = ? AND record_key IS ? AND owner IS ?", [form, try key.map(Self.keyText), owner])
    }

    public func drafts(form: String?, owner: String?) throws -> [Draft] {
        if let form { return try fetchDrafts("WHERE form = ? AND owner IS ?", [form, owner]) }
        return try fetchDrafts("WHERE owner IS ?", [owner])
    }

    /// Its drafts are deleted in the transaction of a save through this very store.
    public func deletesDrafts(with backend: any FormBackend) -> Bool {
        (backend as? FormStore) === self
    }

    public func deleteDraft(id: String) throws {
        guard try attachSidecar(creating: false) else { return }
        let schema = ownSchema
        try writeOwnTables { conn in try Self.deleteDraft(id, schema: schema, conn) }
    }

    @discardableResult
    public func deleteDrafts(updatedBefore date: Date) throws -> Int {
        guard try attachSidecar(creating: false) else { return 0 }
        let schema = ownSchema
        return try writeOwnTables { conn in
            guard try Self.ownTableExists("formstore_drafts", schema: schema, conn) else { return 0 }
            try conn.cachedStatement("DELETE FROM \(schema).formstore_drafts WHERE updated_at < ?")
                .execute([ISO8601.dateTime(date)])
            return conn.changesCount
        }
    }

    /// Deletes a draft inside the caller's transaction (a save's), so the
    /// save and the deletion commit together, the sidecar's table included.
    static func deleteDraft(_ id: String, schema: String, _ conn: Connection) throws {
        // A database without FormStore's tables and no sidecar yet has no drafts.
        guard try ownTableExists("formstore_drafts", schema: schema, conn) else { return }
        try conn.cachedStatement("DELETE FROM \(schema).formstore_drafts WHERE id = ?").execute([id])
    }

    /// The canonical text a record key is looked up by.
    static func keyText(_ key: RecordKey) throws -> String {
        if let plain = plainKeyText(key) { return plain }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(key), as: UTF8.self)
    }

    /// True once FormStore's migrations created the drafts table, in the
    /// database or in its sidecar.
    ///
    /// - throws: `DatabaseError`.
    public func hasDraftTable() throws -> Bool {
        guard try attachSidecar(creating: false) else { return false }
        let schema = ownSchema
        return try database.read { conn in try Self.ownTableExists("formstore_drafts", schema: schema, conn) }
    }

    private func fetchDrafts(_ condition: String, _ arguments: StatementArguments) throws -> [Draft] {
        guard try attachSidecar(creating: false) else { return [] }
        let schema = ownSchema
        let rows = try database.read { conn -> [Row] in
            // A database opened without FormStore's migrations has no drafts yet.
            guard try Self.ownTableExists("formstore_drafts", schema: schema, conn) else { return [] }
            return try conn.cachedStatement("SELECT payload FROM \(schema).formstore_drafts \(condition) ORDER BY updated_at DESC")
                .fetchAll(arguments)
        }
        return try rows.map { row in try Draft(encoded: Data(try row.value(at: 0, as: String.self).utf8)) }
    }
}
