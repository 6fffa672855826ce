import FormBasics
public import FormCore
import FoundationEssentials
import Synchronization

/// History: every insert and update through the store records, in its own
/// transaction, each changed field's stored values before and after, when,
/// who and through what. It lives where drafts live: in the database after
/// `initialize()`, else in the sidecar. A save does not create the sidecar
/// (a command that fails must leave nothing behind): a database left alone
/// gets history from the first draft kept or `prepareOwnTables()` on.
extension FormStore: HistoryBackend {
    /// How long history is kept; everything, unless told otherwise. Applied by
    /// each save to what it adds to.
    public var historyRetention: HistoryRetention {
        get { retention.withLock { $0 } }
        set { retention.withLock { $0 = newValue } }
    }

    /// The writer of a save's history when FormStore's tables are reachable;
    /// `nil` for a read-only store or a database whose sidecar does not exist yet.
    func historyWriter(_ cached: CachedMapping, _ attribution: ChangeAttribution) throws -> HistoryWriter? {
        guard !database.configuration.readOnly, try attachSidecar(creating: false) else { return nil }
        return HistoryWriter(cached: cached, schema: ownSchema, attribution: attribution, retention: historyRetention)
    }

    /// `historyWriter(_:_:)` of a mapping not taken from the cache.
    func historyWriter(_ mapping: TableMapping, _ attribution: ChangeAttribution) throws -> HistoryWriter? {
        try historyWriter(CachedMapping(mapping), attribution)
    }

    /// Whether a save records its history now: FormStore's tables are in the
    /// database (after `initialize()`) or in its sidecar (made by the first
    /// draft kept, or `prepareOwnTables()`).
    public func isRecordingHistory() throws -> Bool {
        guard try attachSidecar(creating: false) else { return false }
        let schema = ownSchema
        return try database.read { try Self.ownTableExists("formstore_changes", schema: schema, $0) }
    }

    /// The saves of the record with `key`, oldest first; with `field`, only
    /// the saves that changed that field (and of each, only it). Values are
    /// read back through the field's storage coding.
    ///
    /// ```swift
    /// for change in try store.history(form, key: RecordKey("id", 7), field: "email") {
    ///     print(change.changedAt, change.attribution.actor ?? "-", change.fields[0].new ?? .null)
    /// }
    /// ```
    ///
    /// - throws: `FormStoreError` when the form does not match the table; `DatabaseError`.
    public func history(_ form: Form, key: RecordKey, field: String? = nil) throws -> [RecordChange] {
        let mapping = try mapping(for: form)
        guard try attachSidecar(creating: false) else { return [] }
        let schema = ownSchema
        let keyText = try Self.keyText(try storedKey(form, key))
        let rows = try database.read { conn -> [Row] in
            guard try Self.ownTableExists("formstore_changes", schema: schema, conn) else { return [] }
            var sql = """
                SELECT c.id, c.changed_at, c.actor, c.via, f.field, f.old_value, f.new_value, f.secure
                FROM \(schema).formstore_changes c JOIN \(schema).formstore_change_fields f ON f.change_id = c.id
                WHERE c.form = ? AND c.record_key = ?
                """
            var arguments: [DatabaseValue] = [.text(form.name), .text(keyText)]
            if let field {
                sql += " AND f.field = ?"
                arguments.append(.text(field))
            }
            return try conn.cachedStatement(sql + " ORDER BY c.id").fetchAll(StatementArguments(arguments))
        }
        let order = Dictionary(form.fields.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
        var changes: [RecordChange] = []
        for row in rows {
            let id = try row.value(at: 0, as: Int64.self)
            if changes.last?.id != id {
                let when = try row.value(at: 1, as: String.self)
                let actor: String? = if case .text(let name) = row[2] { name } else { nil }
                let via = try row.value(at: 3, as: String.self)
                changes.append(RecordChange(id: id, form: form.name, key: key, changedAt: ISO8601.parseDateTime(when) ?? .distantPast,
                                            attribution: ChangeAttribution(actor: actor, via: .init(rawValue: via)),
                                            fields: []))
            }
            let name = try row.value(at: 4, as: String.self)
            let secure = try row.value(at: 7, as: Int64.self) != 0
            let coding = mapping.coding(name)
            let old = row[5]
            let new = row[6]
            let oldValue = secure ? Optional.none : coding.decode(old)
            // The stored form, always: even where it reads as the model value itself, the form
            // a write would choose may differ (text '12' into an untyped column holding NULL now).
            let storedOld = secure ? Optional.none : FieldValue(old)
            changes[changes.count - 1].fields.append(
                FieldChange(field: name, old: oldValue, new: secure ? Optional.none : coding.decode(new),
                            isSecure: secure, storedOld: storedOld))
        }
        for index in changes.indices {
            changes[index].fields.sort { (order[$0.field] ?? .max) < (order[$1.field] ?? .max) }
        }
        return changes
    }

    // MARK: The async API

    public func insert(_ form: Form, values: [String: FieldValue], deletingDraft: String?,
                       attribution: ChangeAttribution) async throws -> StoredRecord {
        try await insert(form, values: values, storedForms: [:], deletingDraft: deletingDraft, attribution: attribution)
    }

    public func insert(_ form: Form, values: [String: FieldValue], storedForms: [String: FieldValue], deletingDraft: String?,
                       attribution: ChangeAttribution) async throws -> StoredRecord {
        try await database.performBatchedWrite {
            try self.insertion(form, values: values, storedForms: storedForms, deletingDraft: deletingDraft,
                               attribution: attribution)
        }
    }

    public func update(_ form: Form, key: RecordKey, changes: [String: FieldValue], base: SaveBase,
                       deletingDraft: String?, attribution: ChangeAttribution) async throws -> UpdateResult {
        try await database.performBatchedWrite {
            try self.updating(form, key: key, changes: changes, base: base, deletingDraft: deletingDraft,
                              attribution: attribution)
        }
    }
}
