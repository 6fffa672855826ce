public import FoundationEssentials

/// A record as stored: its key, its model values by field key, and its version
/// (the form's version column) when it has one.
///
/// The values are kept laid out by slot (`slotValues`): a store reads a row
/// straight into them, and a session takes them as they are; `values`, the
/// dictionary form, is built only when asked (issue 14).
public struct StoredRecord: Sendable, Hashable {
    public var key: RecordKey
    /// The values by slot, in the layout of the store that read them
    /// (`CompiledForm.layout` for FormStore's stores; `.empty` for a record
    /// made from a dictionary).
    public var slotValues: RecordValues
    public var version: Int64?
    /// The rows of the form's repeating groups, by group key, in their order
    /// (empty for a backend that stores no groups; see `GroupBackend`).
    // No default value: every init sets it, and the inlined init evaluated
    // the default, then built the record aside and copied it out (issue 14).
    public var groups: [String: [[String: FieldValue]]]
    /// What a save wrote, as the store holds it (`WrittenForms`); `nil` for
    /// a record read, inserted, or saved by a store that keeps no stored forms.
    public var writtenForms: WrittenForms?

    /// The values by field key (built from `slotValues` when read).
    public var values: [String: FieldValue] {
        get { slotValues.dictionary }
        set { slotValues = RecordValues(newValue, layout: slotValues.layout) }
    }

    public init(key: RecordKey, values: [String: FieldValue], version: Int64? = nil,
                groups: [String: [[String: FieldValue]]] = [:]) {
        self.init(key: key, slotValues: RecordValues(values), version: version, groups: groups)
    }

    /// A record whose values are already laid out by slot. Inlinable: called
    /// across modules, it copied and dropped each part (466 instructions a load).
    @inlinable
    public init(key: RecordKey, slotValues: RecordValues, version: Int64? = nil,
                groups: [String: [[String: FieldValue]]] = [:]) {
        self.key = key
        self.slotValues = slotValues
        self.version = version
        self.groups = groups
        writtenForms = nil
    }
}

/// The stored forms of the columns a save wrote, by field: what each held
/// before the save and holds after it, exactly as the store keeps them (a
/// date laid out `2024-3-5`, the text `'007'` in an untyped column, a bool's
/// `'Y'`), where the field's value says only what they mean. Undoing the
/// save writes `before` back, redoing it `after` (`FormSession.undo()`), so
/// either restores the bytes and not the value written anew.
public struct WrittenForms: Sendable, Hashable {
    public var before: [String: FieldValue]
    public var after: [String: FieldValue]
    /// By group and row key, the stored forms of each row the save updated
    /// or deleted, by column, as they were before it: undone, a row comes
    /// back as it was stored, not in its sibling rows' forms.
    public var rows: [String: [RecordKey: [String: FieldValue]]]

    public init(before: [String: FieldValue], after: [String: FieldValue],
                rows: [String: [RecordKey: [String: FieldValue]]] = [:]) {
        self.before = before
        self.after = after
        self.rows = rows
    }
}

/// What a save based its edits on, checked inside the write transaction: the
/// loaded version (when the form names a version column) and the loaded values
/// of the columns the save writes.
///
/// A row whose version moved on is a conflict only where a written column's
/// stored value differs from its base: a change by someone else to a column
/// this save does not write is not a conflict.
public struct SaveBase: Sendable, Hashable {
    public var version: Int64?
    public var values: [String: FieldValue]
    /// By field, the stored form a change is to be written in where it holds
    /// the change's value (a revert's: the value the history kept, `2` for a
    /// bool's yes); a backend writes any other change in the column's current form.
    public var storedForms: [String: FieldValue]

    public init(version: Int64?, values: [String: FieldValue], storedForms: [String: FieldValue] = [:]) {
        self.version = version
        self.values = values
        self.storedForms = storedForms
    }
}

/// One field changed both by this session and, since it loaded, by someone else.
public struct FieldConflict: Sendable, Hashable, CustomStringConvertible {
    public var field: String
    public var base: FieldValue
    public var mine: FieldValue
    public var theirs: FieldValue
    /// The field is secure (a password), as the session that found the
    /// conflict marks it: its values stay here to resolve it by (`mine`,
    /// `theirs`), but its text (`description`) and JSON show each as
    /// `Field.shownSecret`, so no log or response carries another writer's secret.
    public var isSecure = false

    public init(field: String, base: FieldValue, mine: FieldValue, theirs: FieldValue) {
        self.field = field
        self.base = base
        self.mine = mine
        self.theirs = theirs
    }

    /// `value` as the conflict may show it: a secure field's as `Field.shownSecret` (empty ones tell nothing).
    func shown(_ value: FieldValue) -> FieldValue {
        isSecure && !value.isEmpty ? .text(Field.shownSecret) : value
    }

    public var description: String {
        "\(field): was \(shown(base)), yours \(shown(mine)), theirs \(shown(theirs))"
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
/// to storage only through this protocol (FormStorage implements it for SQLite;
/// `ModelBackend` for a struct, dictionary or settings model).
///
/// Each writing call is one transaction; `deletingDraft` names a draft removed
/// in that same transaction.
///
/// Not `Sendable` itself: a backend over a database is (`FormStore`,
/// `PostgresFormStore`), a `ModelBackend` only when its model is, so a model
/// that is not `Sendable` can still be edited. The async calls run in their
/// caller's isolation (`nonisolated(nonsending)`): awaiting one sends nothing,
/// and a backend with threads of its own hops to them inside.
public protocol FormBackend {
    func load(_ form: Form, key: RecordKey) throws -> StoredRecord?
    func insert(_ form: Form, values: [String: FieldValue], deletingDraft: String?) throws -> StoredRecord
    func update(_ form: Form, key: RecordKey, changes: [String: FieldValue], base: SaveBase,
                deletingDraft: String?) throws -> UpdateResult
    /// Returns false when there was no such record.
    func delete(_ form: Form, key: RecordKey, deletingDraft: String?) throws -> Bool
    /// Whether a number field may hold NaN (PostgreSQL's `double precision`
    /// and `numeric` do; SQLite stores NULL for it): where not, the JSON and
    /// typed doors refuse it as a value the field cannot hold. True by default.
    var holdsNaN: Bool { get }

    // The async API (`FormBackend+Async.swift`): the same calls awaited. A
    // backend over a database runs them on threads of its own; the defaults
    // run the blocking call in place, right for a backend that never waits.
    nonisolated(nonsending)
    func load(_ form: Form, key: RecordKey) async throws -> StoredRecord?
    nonisolated(nonsending)
    func insert(_ form: Form, values: [String: FieldValue], deletingDraft: String?) async throws -> StoredRecord
    nonisolated(nonsending)
    func update(_ form: Form, key: RecordKey, changes: [String: FieldValue], base: SaveBase,
                deletingDraft: String?) async throws -> UpdateResult
    nonisolated(nonsending)
    func delete(_ form: Form, key: RecordKey, deletingDraft: String?) async throws -> Bool
}

/// Where drafts are kept: a table beside the records, or files.
public protocol DraftStore: Sendable {
    /// What this store's drafts belong to: the database they were typed
    /// against, where the store is one database's own. A draft it could not
    /// take is kept in the fallback files stamped with it (`Draft.database`),
    /// and offered only where the store's scope is the same. `nil` (the
    /// default): a store of no one database, such as the fallback files.
    var draftScope: String? { get }
    /// Inserts or replaces the draft with this id.
    func writeDraft(_ draft: Draft) throws
    func draft(id: String) throws -> Draft?
    /// Drafts of one record (`key`) or of new records (`key == nil`), newest first.
    func drafts(form: String, key: RecordKey?) throws -> [Draft]
    /// Every draft, or a form's, newest first.
    func drafts(form: String?) throws -> [Draft]
    func deleteDraft(id: String) throws
    /// Deletes drafts last written before `date`; returns how many.
    @discardableResult
    func deleteDrafts(updatedBefore date: Date) throws -> Int

    /// Drafts of one record (or of new records) that belong to `owner`
    /// (`nil`: the drafts nobody owns), newest first. A draft is offered only
    /// to its owner.
    func drafts(form: String, key: RecordKey?, owner: String?) throws -> [Draft]
    /// Every draft of `owner`, or of a form of theirs, newest first.
    func drafts(form: String?, owner: String?) throws -> [Draft]
    /// True when `backend`'s writes delete this store's drafts in their own
    /// transaction (`deletingDraft`): the store is the backend's own table.
    /// Otherwise a session deletes its draft here after a save.
    func deletesDrafts(with backend: any FormBackend) -> Bool

    // The async API, as for `FormBackend`.
    func writeDraft(_ draft: Draft) async throws
    func drafts(form: String, key: RecordKey?, owner: String?) async throws -> [Draft]
    func deleteDraft(id: String) async throws
}

extension SaveBase {
    /// The written fields whose stored value moved away from its base; what
    /// every backend checks inside its write transaction.
    ///
    /// A field someone else changed to exactly the value this save writes is no conflict.
    public func conflicts(changes: [String: FieldValue], stored: [String: FieldValue]) -> [FieldConflict] {
        conflicts(changes: changes) { stored[$0] }
    }

    /// `conflicts(changes:stored:)` against a record's slots (`StoredRecord.slotValues`).
    public func conflicts(changes: [String: FieldValue], stored: RecordValues) -> [FieldConflict] {
        conflicts(changes: changes) { stored[$0] }
    }

    private func conflicts(changes: [String: FieldValue], stored: (String) -> FieldValue?) -> [FieldConflict] {
        changes.keys.sorted().compactMap { field in
            let base = values[field] ?? .null
            let theirs = stored(field) ?? .null
            let mine = changes[field] ?? .null
            guard theirs != base, theirs != mine else { return nil }
            return FieldConflict(field: field, base: base, mine: mine, theirs: theirs)
        }
    }
}

extension FormBackend {
    public var holdsNaN: Bool { true }
}
