import FoundationEssentials
import FormCore

/// A draft store that keeps nothing. `draft restore` gives it to the session
/// that restores a draft: the session then names its draft to the save, whose
/// transaction deletes the stored draft together with writing the record,
/// while its autosaves go nowhere, so a save that fails leaves the stored
/// draft whole.
struct DiscardingDraftStore: DraftStore {
    func writeDraft(_ draft: Draft) throws {}
    func draft(id: String) throws -> Draft? { nil }
    func drafts(form: String, key: RecordKey?) throws -> [Draft] { [] }
    func drafts(form: String?) throws -> [Draft] { [] }
    func deleteDraft(id: String) throws {}
    func deleteDrafts(updatedBefore date: Date) throws -> Int { 0 }
    /// The save's transaction deletes the stored draft: that is the point.
    func deletesDrafts(with backend: any FormBackend) -> Bool { true }
}
