import FoundationEssentials

/// A backend that keeps each save's history in the save's own transaction:
/// the same writes as `FormBackend`, told who makes them. A session saves
/// through these calls when its backend has them (`FormSession.attribution`).
public protocol HistoryBackend: FormBackend {
    func insert(_ form: Form, values: [String: FieldValue], deletingDraft: String?,
                attribution: ChangeAttribution) throws -> StoredRecord
    func update(_ form: Form, key: RecordKey, changes: [String: FieldValue], base: SaveBase,
                deletingDraft: String?, attribution: ChangeAttribution) throws -> UpdateResult
    nonisolated(nonsending)
    func insert(_ form: Form, values: [String: FieldValue], deletingDraft: String?,
                attribution: ChangeAttribution) async throws -> StoredRecord
    nonisolated(nonsending)
    func update(_ form: Form, key: RecordKey, changes: [String: FieldValue], base: SaveBase,
                deletingDraft: String?, attribution: ChangeAttribution) async throws -> UpdateResult

    /// `insert(_:values:deletingDraft:attribution:)`, each value written in the
    /// stored form `storedForms` gives where that holds it, as an update writes
    /// `SaveBase.storedForms`: text given as JSON text stays text in a column
    /// that takes any class. A backend whose columns each hold one type
    /// ignores them (the default).
    func insert(_ form: Form, values: [String: FieldValue], storedForms: [String: FieldValue], deletingDraft: String?,
                attribution: ChangeAttribution) throws -> StoredRecord
    nonisolated(nonsending)
    func insert(_ form: Form, values: [String: FieldValue], storedForms: [String: FieldValue], deletingDraft: String?,
                attribution: ChangeAttribution) async throws -> StoredRecord

    /// The saves of one record, oldest first; with `field`, only those that
    /// changed it (and of each, only that field).
    func history(_ form: Form, key: RecordKey, field: String?) throws -> [RecordChange]

    /// Whether a save records its history now: false where the tables that
    /// hold it do not exist yet (a SQLite database nobody ran `init` on and
    /// that has no sidecar), or history is turned off.
    func isRecordingHistory() throws -> Bool
}

extension HistoryBackend {
    public func isRecordingHistory() throws -> Bool { true }

    public func insert(_ form: Form, values: [String: FieldValue], storedForms: [String: FieldValue], deletingDraft: String?,
                       attribution: ChangeAttribution) throws -> StoredRecord {
        try insert(form, values: values, deletingDraft: deletingDraft, attribution: attribution)
    }

    nonisolated(nonsending)
    public func insert(_ form: Form, values: [String: FieldValue], storedForms: [String: FieldValue], deletingDraft: String?,
                       attribution: ChangeAttribution) async throws -> StoredRecord {
        try await insert(form, values: values, deletingDraft: deletingDraft, attribution: attribution)
    }

    /// The key as the stored record holds it, else `key` (a record deleted
    /// since): history is kept under the stored key, and a key typed another
    /// way that the database takes as equal (`alpha` in a `COLLATE NOCASE`
    /// column holding `Alpha`) names the same record.
    public func storedKey(_ form: Form, _ key: RecordKey) throws -> RecordKey {
        try load(form, key: key)?.key ?? key
    }
}
