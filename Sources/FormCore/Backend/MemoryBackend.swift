public import FoundationEssentials
import Synchronization

/// Records and drafts kept in memory: for tests, for forms over dictionaries,
/// and for services that persist elsewhere. Thread-safe.
///
/// ```swift
/// let backend = MemoryBackend(keyColumns: ["id"])
/// let session = FormSession.new(form, backend: backend, drafts: backend)
/// ```
///
/// New records without a key value get the next integer id.
public final class MemoryBackend: FormBackend, DraftStore {
    struct State {
        var records: [RecordKey: StoredRecord] = [:]
        var order: [RecordKey] = []
        var drafts: [String: Draft] = [:]
        var nextID: Int64 = 1
        var writes = 0
    }

    public let keyColumns: [String]
    let state = Mutex(State())
    let commitListeners = Mutex(CommitListeners())

    public init(keyColumns: [String] = ["id"]) {
        self.keyColumns = keyColumns
    }

    /// Every record, in insertion order.
    public var records: [StoredRecord] {
        state.withLock { s in s.order.compactMap { s.records[$0] } }
    }

    /// How many record writes (insert, update, delete) happened: a save that
    /// writes nothing leaves it unchanged.
    public var writeCount: Int { state.withLock { $0.writes } }

    /// Stores or replaces a record as another writer would (no session involved).
    /// The version moves on, and is written to `versionColumn` when given.
    @discardableResult
    public func put(_ values: [String: FieldValue], versionColumn: String? = nil) -> StoredRecord {
        defer { heardCommit() }
        return state.withLock { s in
            Self.store(values, in: &s, keyColumns: keyColumns, bump: true, versionColumn: versionColumn)
        }
    }

    public func record(_ key: RecordKey) -> StoredRecord? {
        state.withLock { $0.records[key] }
    }

    public func load(_ form: Form, key: RecordKey) throws -> StoredRecord? {
        state.withLock { $0.records[key] }
    }

    public func insert(_ form: Form, values: [String: FieldValue], deletingDraft: String?) throws -> StoredRecord {
        state.withLock { s in
            if let deletingDraft { s.drafts[deletingDraft] = nil }
            s.writes += 1
            return Self.store(values, in: &s, keyColumns: keyColumns, bump: form.versionColumn != nil,
                              versionColumn: form.versionColumn)
        }
    }

    public func update(_ form: Form, key: RecordKey, changes: [String: FieldValue], base: SaveBase,
                       deletingDraft: String?) throws -> UpdateResult {
        state.withLock { s in
            guard var record = s.records[key] else { return .notFound }
            let conflicts = base.conflicts(changes: changes, stored: record.values)
            guard conflicts.isEmpty else { return .conflict(conflicts) }
            record.values.merge(changes) { $1 }
            if let column = form.versionColumn {
                let next = (record.version ?? 0) + 1
                record.version = next
                record.values[column] = .int(next)
            }
            s.records[key] = record
            if let deletingDraft { s.drafts[deletingDraft] = nil }
            s.writes += 1
            return .saved(record)
        }
    }

    public func delete(_ form: Form, key: RecordKey, deletingDraft: String?) throws -> Bool {
        state.withLock { s in
            guard s.records.removeValue(forKey: key) != nil else { return false }
            s.order.removeAll { $0 == key }
            if let deletingDraft { s.drafts[deletingDraft] = nil }
            s.writes += 1
            return true
        }
    }

    static func store(_ values: [String: FieldValue], in s: inout State, keyColumns: [String],
                              bump: Bool, versionColumn: String? = nil) -> StoredRecord {
        var values = values
        for column in keyColumns where (values[column] ?? .null) == .null {
            values[column] = .int(s.nextID)
            s.nextID += 1
        }
        let key = RecordKey(columns: keyColumns, values: keyColumns.map { values[$0] ?? .null })
        var version = s.records[key]?.version
        if bump {
            version = (version ?? 0) + 1
            if let versionColumn { values[versionColumn] = .int(version!) }
        }
        let record = StoredRecord(key: key, values: values, version: version)
        if s.records.updateValue(record, forKey: key) == nil { s.order.append(key) }
        return record
    }

    // MARK: DraftStore

    public func writeDraft(_ draft: Draft) throws {
        state.withLock { $0.drafts[draft.id] = draft }
    }

    public func draft(id: String) throws -> Draft? {
        state.withLock { $0.drafts[id] }
    }

    public func drafts(form: String, key: RecordKey?) throws -> [Draft] {
        try drafts(form: form).filter { $0.recordKey == key }
    }

    public func drafts(form: String?) throws -> [Draft] {
        state.withLock { s in
            s.drafts.values.filter { form == nil || $0.form == form }.sorted { $0.updatedAt > $1.updatedAt }
        }
    }

    /// Its writes delete its own drafts in the same step.
    public func deletesDrafts(with backend: any FormBackend) -> Bool {
        (backend as? MemoryBackend) === self
    }

    public func deleteDraft(id: String) throws {
        _ = state.withLock { $0.drafts.removeValue(forKey: id) }
    }

    @discardableResult
    public func deleteDrafts(updatedBefore date: Date) throws -> Int {
        state.withLock { s in
            let old = s.drafts.values.filter { $0.updatedAt < date }.map(\.id)
            for id in old { s.drafts[id] = nil }
            return old.count
        }
    }
}
