import FormBasics
public import FormCore
import FoundationEssentials
import Synchronization

/// History on PostgreSQL: every insert and update through the store records,
/// in its own transaction, each changed field's stored value before and after
/// (the column's text), when, who and through what, in FormStore's
/// `formstore_changes` tables, which `init` brings up to date. The same
/// `HistoryBackend` as SQLite's `FormStore`, so sessions, `formstore history`
/// and `revert` read it the same way.
extension PostgresFormStore: HistoryBackend {
    /// How long history is kept; everything, unless told otherwise. Applied by
    /// each save to what it adds to.
    ///
    /// ```swift
    /// store.historyRetention = .latest(50)
    /// ```
    public var historyRetention: HistoryRetention {
        get { retention.withLock { $0 } }
        set { retention.withLock { $0 = newValue } }
    }

    /// Whether saves record their history (true unless turned off): a service
    /// that keeps its own audit trail may spare each save the history's insert.
    public var keepsHistory: Bool {
        get { historyEnabled.withLock { $0 } }
        set { historyEnabled.withLock { $0 = newValue } }
    }

    func historyWriter(_ mapping: PostgresTableMapping, _ attribution: ChangeAttribution) -> PostgresHistoryWriter {
        PostgresHistoryWriter(mapping: mapping, attribution: attribution, retention: historyRetention, store: self)
    }

    /// Whether a save records its history now: `keepsHistory`, and the
    /// history's tables exist (FormStore's migrations have run).
    public func isRecordingHistory() throws -> Bool {
        guard keepsHistory else { return false }
        return try pool.read { conn in
            try conn.execute("SELECT pg_catalog.to_regclass('formstore_changes') IS NOT NULL").text(row: 0, column: 0) == "t"
        }
    }

    /// The saves of the record with `key`, oldest first; with `field`, only
    /// the saves that changed that field (and of each, only it). Values are
    /// read back through the field's coding, as the record is.
    ///
    /// - throws: `PostgresStoreError` when the form does not match the table; `PostgresError`.
    public func history(_ form: Form, key: RecordKey, field: String? = nil) throws -> [RecordChange] {
        let mapping = try mapping(for: form)
        var sql = """
            SELECT c.id, c.changed_at, c.actor, c.via, f.field, f.old_value, f.new_value, f.secure
            FROM formstore_changes c JOIN formstore_change_fields f ON f.change_id = c.id
            WHERE c.form = $1 AND c.record_key = $2
            """
        var parameters: [String?] = [form.name, try Self.keyText(try storedKey(form, key))]
        if let field {
            sql += " AND f.field = $3"
            parameters.append(field)
        }
        let result = try pool.read { conn -> PostgresResult? in
            guard try conn.execute("SELECT pg_catalog.to_regclass('formstore_changes') IS NOT NULL")
                .text(row: 0, column: 0) == "t" else { return nil }
            return try conn.execute(sql + " ORDER BY c.id", parameters)
        }
        guard let result else { return [] }
        let order = Dictionary(form.fields.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
        var changes: [RecordChange] = []
        for row in 0..<result.rowCount {
            let id = Int64(result.text(row: row, column: 0) ?? "") ?? 0
            if changes.last?.id != id {
                let when = result.text(row: row, column: 1) ?? ""
                changes.append(RecordChange(id: id, form: form.name, key: key,
                                            changedAt: ISO8601.parseDateTime(when) ?? .distantPast,
                                            attribution: ChangeAttribution(actor: result.text(row: row, column: 2),
                                                                           via: .init(rawValue: result.text(row: row, column: 3) ?? "")),
                                            fields: []))
            }
            let name = result.text(row: row, column: 4) ?? ""
            let secure = result.text(row: row, column: 7) != "0"
            let coding = mapping.coding(name)
            // A JSON path's member is kept as its JSON text (`PostgresTableMapping.pathMemberTexts`).
            let decode = { (text: String?) in
                mapping.jsonPaths[name] == nil ? coding.decode(text) : mapping.pathValue(name, historyText: text)
            }
            changes[changes.count - 1].fields.append(
                FieldChange(field: name, old: secure ? Optional.none : decode(result.text(row: row, column: 5)),
                            new: secure ? Optional.none : decode(result.text(row: row, column: 6)), isSecure: secure))
        }
        for index in changes.indices {
            changes[index].fields.sort { (order[$0.field] ?? .max) < (order[$1.field] ?? .max) }
        }
        return changes
    }

    // MARK: The async API

    public func insert(_ form: Form, values: [String: FieldValue], deletingDraft: String?,
                       attribution: ChangeAttribution) async throws -> StoredRecord {
        try await Self.onServerQueue {
            try self.insert(form, values: values, deletingDraft: deletingDraft, attribution: attribution)
        }
    }

    public func update(_ form: Form, key: RecordKey, changes: [String: FieldValue], base: SaveBase,
                       deletingDraft: String?, attribution: ChangeAttribution) async throws -> UpdateResult {
        try await Self.onServerQueue {
            try self.update(form, key: key, changes: changes, base: base, deletingDraft: deletingDraft,
                            attribution: attribution)
        }
    }
}
