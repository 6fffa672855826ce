/// A backend that stores repeating groups: it loads a record's rows with it
/// (`StoredRecord.groups`) and writes the parent and every row change in one
/// transaction, or nothing.
///
/// A conflict on a row (changed or deleted by someone else since the session
/// loaded it) is `.conflict`, its `field` naming the row and column
/// (`lines[7].amount`); nothing is written then.
public protocol GroupBackend: FormBackend {
    func insert(_ form: Form, values: [String: FieldValue], groups: [GroupChanges],
                deletingDraft: String?, attribution: ChangeAttribution) throws -> StoredRecord
    func update(_ form: Form, key: RecordKey, changes: [String: FieldValue], base: SaveBase,
                groups: [GroupChanges], deletingDraft: String?, attribution: ChangeAttribution) throws -> UpdateResult
    nonisolated(nonsending)
    func insert(_ form: Form, values: [String: FieldValue], groups: [GroupChanges],
                deletingDraft: String?, attribution: ChangeAttribution) async throws -> StoredRecord
    nonisolated(nonsending)
    func update(_ form: Form, key: RecordKey, changes: [String: FieldValue], base: SaveBase,
                groups: [GroupChanges], deletingDraft: String?, attribution: ChangeAttribution) async throws -> UpdateResult
}

extension GroupBackend {
    /// The blocking call, run in place (a backend over a database overrides it
    /// to run on its own threads).
    nonisolated(nonsending)
    public func insert(_ form: Form, values: [String: FieldValue], groups: [GroupChanges],
                       deletingDraft: String?, attribution: ChangeAttribution) async throws -> StoredRecord {
        try blocking { try insert(form, values: values, groups: groups, deletingDraft: deletingDraft, attribution: attribution) }
    }

    nonisolated(nonsending)
    public func update(_ form: Form, key: RecordKey, changes: [String: FieldValue], base: SaveBase,
                       groups: [GroupChanges], deletingDraft: String?, attribution: ChangeAttribution) async throws -> UpdateResult {
        try blocking { try update(form, key: key, changes: changes, base: base, groups: groups, deletingDraft: deletingDraft, attribution: attribution) }
    }
}
