import FormBasics
import FormStorage
public import FormCore
public import FoundationEssentials

/// Drafts: `DraftStore` over the `formstore_drafts` table (Migrations/0002_drafts.sql),
/// the same table and payload as on SQLite.
extension PostgresFormStore {
    /// The server and database, as a digest of the URL (which may hold a
    /// password): a draft it could not take is offered from the fallback files only here.
    public var draftScope: String? { "postgresql:" + SHA256.hexDigest(Array(pool.url.utf8)) }

    public func writeDraft(_ draft: Draft) throws {
        let payload = String(decoding: try draft.encoded(), as: UTF8.self)
        let recordKey = try draft.recordKey.map(Self.keyText)
        try pool.write { conn in
            try conn.execute("""
                INSERT INTO formstore_drafts (id, form, record_key, form_version, payload, created_at, updated_at, owner)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                ON CONFLICT (id) DO UPDATE SET record_key = excluded.record_key,
                    form_version = excluded.form_version, payload = excluded.payload,
                    updated_at = excluded.updated_at, owner = excluded.owner
                """, [draft.id, draft.form, recordKey, String(draft.formVersion), payload,
                      ISO8601.dateTime(draft.createdAt), ISO8601.dateTime(draft.updatedAt), draft.owner])
        }
    }

    public func draft(id: String) throws -> Draft? {
        try fetchDrafts("WHERE id = $1", [id]).first
    }

    public func drafts(form: String, key: RecordKey?) throws -> [Draft] {
        try fetchDrafts("WHERE form = $1 AND record_key IS NOT DISTINCT FROM $2", [form, try key.map(Self.keyText)])
    }

    public func drafts(form: String?) throws -> [Draft] {
        guard let form else { return try fetchDrafts("", []) }
        return try fetchDrafts("WHERE form = $1", [form])
    }

    public func drafts(form: String, key: RecordKey?, owner: String?) throws -> [Draft] {
        try fetchDrafts("WHERE form = $1 AND record_key IS NOT DISTINCT FROM $2 AND owner IS NOT DISTINCT FROM $3",
                        [form, try key.map(Self.keyText), owner])
    }

    public func drafts(form: String?, owner: String?) throws -> [Draft] {
        guard let form else { return try fetchDrafts("WHERE owner IS NOT DISTINCT FROM $1", [owner]) }
        return try fetchDrafts("WHERE form = $1 AND owner IS NOT DISTINCT FROM $2", [form, owner])
    }

    /// Its drafts are deleted in the transaction of a save through this very store.
    public func deletesDrafts(with backend: any FormBackend) -> Bool {
        (backend as? PostgresFormStore) === self
    }

    public func deleteDraft(id: String) throws {
        try pool.write { try Self.deleteDraft(id, $0) }
    }

    @discardableResult
    public func deleteDrafts(updatedBefore date: Date) throws -> Int {
        try pool.write { conn in
            try conn.execute("DELETE FROM formstore_drafts WHERE updated_at < $1", [ISO8601.dateTime(date)]).changedRows
        }
    }

    /// Deletes a draft inside the caller's transaction (a save's).
    static func deleteDraft(_ id: String, _ conn: PostgresConnection) throws {
        try conn.execute("DELETE FROM formstore_drafts WHERE id = $1", [id])
    }

    /// The canonical text a record key is looked up by (the same as SQLite's).
    static func keyText(_ key: RecordKey) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(key), as: UTF8.self)
    }

    private func fetchDrafts(_ condition: String, _ parameters: [String?]) throws -> [Draft] {
        // The fixed-width ISO-8601 text sorts as the time it names.
        let result = try pool.read { conn in
            try conn.execute("SELECT payload FROM formstore_drafts \(condition) ORDER BY updated_at DESC", parameters)
        }
        return try (0..<result.rowCount).map { row in
            try Draft(encoded: Data((result.text(row: row, column: 0) ?? "").utf8))
        }
    }
}
