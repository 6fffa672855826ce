/// A record as stored: its key, its model values by field key, and its version
/// (the form's version column) when it has one.
public struct StoredRecord: Sendable, Hashable {
    public var key: RecordKey
    public var values: [String: FieldValue]
    public var version: Int64?

    public init(key: RecordKey, values: [String: FieldValue], version: Int64? = nil) {
        self.key = key
        self.values = values
        self.version = version
    }
}

/// What a save based its edits on, checked inside the write transaction.
public enum SaveBase: Sendable, Hashable {
    /// The version column's value when the record was loaded.
    case version(Int64)
    /// The loaded values of the columns this save writes.
    case values([String: FieldValue])
}

/// One field changed both by this session and, since it loaded, by someone else.
public struct FieldConflict: Sendable, Hashable {
    public var field: String
    public var base: FieldValue
    public var mine: FieldValue
    public var theirs: FieldValue

    public init(field: String, base: FieldValue, mine: FieldValue, theirs: FieldValue) {
        self.field = field
        self.base = base
        self.mine = mine
        self.theirs = theirs
    }
}

/// What a backend's update did.
public enum UpdateResult: Sendable, Hashable {
    case saved(StoredRecord)
    /// Nothing was written: the record changed underneath.
    case conflict([FieldConflict])
    /// Nothing was written: the record is gone.
    case notFound
}

/// Storage for editing sessions. FormCore never imports SQLite: a session talks
/// to storage only through this protocol (FormStorage implements it for SQLite).
///
/// Each writing call is one transaction; passing `deletingDraft` removes that
/// draft in the same transaction.
public protocol FormBackend: Sendable {
    func load(_ form: Form, key: RecordKey) throws -> StoredRecord?
    func insert(_ form: Form, values: [String: FieldValue], deletingDraft: String?) throws -> StoredRecord
    func update(_ form: Form, key: RecordKey, changes: [String: FieldValue], base: SaveBase,
                deletingDraft: String?) throws -> UpdateResult
    /// Returns false when there was no such record.
    func delete(_ form: Form, key: RecordKey, deletingDraft: String?) throws -> Bool

    func writeDraft(_ draft: Draft) throws
    func draft(id: String) throws -> Draft?
    func draft(form: String, key: RecordKey) throws -> Draft?
    func drafts(form: String?) throws -> [Draft]
    func deleteDraft(id: String) throws
}
