public import FoundationEssentials

/// A session's unsaved state, kept so that nothing a person typed is lost:
/// the changed model values, the raw inputs that did not parse, and the base
/// the edits were made from. Secure fields are never part of a draft.
public struct Draft: Sendable, Hashable, Codable {
    /// Random: a record may hold more than one draft until each was offered.
    public var id: String
    public var form: String
    /// `nil` for a record not yet saved.
    public var recordKey: RecordKey?
    public var formVersion: Int
    /// The stored values the edits were based on (every stored field).
    public var base: [String: FieldValue]
    public var baseVersion: Int64?
    /// Model values of the fields the person changed.
    public var values: [String: FieldValue]
    /// Raw inputs that did not parse, by field key.
    public var inputs: [String: String]
    public var createdAt: Date
    public var updatedAt: Date
    /// The rows of the repeating groups that changed (`nil` when none did).
    public var groups: [String: DraftGroup]? = nil
    /// Whose draft it is (a service's user id; the `formstore` command's login
    /// name): it is offered to nobody else. `nil` for a draft nobody owns.
    public var owner: String?
    /// The database the draft was typed against (`DraftStore.draftScope`),
    /// set on a draft kept outside it (a fallback file, which holds the
    /// drafts of every database): it is offered only there. `nil` in the
    /// database's own store, and on fallback drafts kept before scopes.
    public var database: String? = nil

    /// The fields the draft changes (a value or an input that did not parse), by key, in order.
    public var changedFields: [String] { Set(values.keys).union(inputs.keys).sorted() }
    /// The repeating groups whose rows the draft changes, by key, in order.
    public var changedGroups: [String] { (groups ?? [:]).keys.sorted() }

    public init(id: String, form: String, recordKey: RecordKey?, formVersion: Int,
                base: [String: FieldValue], baseVersion: Int64?, values: [String: FieldValue],
                inputs: [String: String], createdAt: Date = Date(), updatedAt: Date = Date(), owner: String? = nil) {
        self.id = id
        self.form = form
        self.recordKey = recordKey
        self.formVersion = formVersion
        self.base = base
        self.baseVersion = baseVersion
        self.values = values
        self.inputs = inputs
        self.owner = owner
        // Stored as whole milliseconds: keep no more, so a draft read back equals itself.
        self.createdAt = Self.milliseconds(createdAt)
        self.updatedAt = Self.milliseconds(updatedAt)
    }

    static func milliseconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}

extension Draft {
    /// `drafts` with one copy of each id, its newest, newest first. A draft
    /// may be kept twice under one id: in its store, and in the fallback
    /// files where an autosave went while the store could not take it
    /// (locked, read-only). The older copy is what the person typed before.
    public static func newestCopies(_ drafts: [Draft]) -> [Draft] {
        var newest: [String: Draft] = [:]
        for draft in drafts where newest[draft.id].map({ $0.updatedAt < draft.updatedAt }) ?? true {
            newest[draft.id] = draft
        }
        return newest.values.sorted { ($0.updatedAt, $0.id) > ($1.updatedAt, $1.id) }
    }
}
