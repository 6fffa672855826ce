import FormCore
import FormStorage
import FoundationEssentials

/// What `revert` puts back: the values a record had at a moment, or those one change replaced.
enum RevertTarget: Sendable, Hashable {
    case time(Date)
    case change(Int64)
}

/// History: what `history` lists and `revert` puts back. Storage that keeps
/// no history (the tests' fake workspace) does not offer these.
protocol HistoryWorkspace {
    /// The record's saves, oldest first; with `field`, only those that changed it.
    func history(of form: Form, key: KeyArgument, field: String?) throws -> [RecordChange]
    /// Whether saves record their history now (`HistoryBackend.isRecordingHistory()`).
    func isRecordingHistory() throws -> Bool
    /// Saves the values `target` names through a session (validated, checked
    /// for conflicts). Secure fields, which history keeps no values of, and
    /// fields the form cannot write that did not come back with the others
    /// are left as they are, each said in `skipped` (`price is secure: …`).
    func revert(_ form: Form, key: KeyArgument, to target: RevertTarget) throws -> (update: RecordUpdate, skipped: [String])
}

extension StorageWorkspace: HistoryWorkspace {
    func history(of form: Form, key: KeyArgument, field: String?) throws -> [RecordChange] {
        if let field, form.field(field) == nil { throw CLIError.unknownField(field, of: form, option: "--field") }
        return try store().history(form, key: try recordKey(key, of: form), field: field)
    }

    func isRecordingHistory() throws -> Bool { try store().isRecordingHistory() }

    func revert(_ form: Form, key: KeyArgument, to target: RevertTarget) throws -> (update: RecordUpdate, skipped: [String]) {
        let store = try store()
        let recordKey = try recordKey(key, of: form)
        let changes = try store.history(form, key: recordKey, field: nil)
        let undone: [RecordChange]
        switch target {
        case .change(let id):
            guard let change = changes.first(where: { $0.id == id }) else {
                throw CLIError.notFound("\(form.name) \(key.text): no change \(id) in its history")
            }
            undone = [change]
        case .time(let date):
            undone = changes.filter { $0.changedAt > date }
        }
        // Each field goes back to its value before the first change undone, and
        // must still hold what the last change of it wrote: else someone changed it since.
        var values: [String: FieldValue] = [:]
        // Each value as the column held it: written back so where it holds the value (a bool's 2).
        var storedForms: [String: FieldValue] = [:]
        var expected: [String: FieldValue] = [:]
        var skipped: [String] = []
        for change in undone {
            for field in change.fields {
                guard form.field(field.field) != nil else {
                    // A column renamed or dropped since, or a field the form no longer has.
                    let note = "\(field.field) is no longer a field of \(form.name): it was left out"
                    if !skipped.contains(note) { skipped.append(note) }
                    continue
                }
                guard !field.isSecure, let old = field.old, let new = field.new else {
                    let note = "\(field.field) is secure: its history keeps no value, so it was left as it is"
                    if !skipped.contains(note) { skipped.append(note) }
                    continue
                }
                if values[field.field] == nil {
                    values[field.field] = old
                    storedForms[field.field] = field.storedOld
                }
                expected[field.field] = new
            }
        }
        // The last recorded change of each field: a field `--change` finds changed again by a later
        // one of the history is no one else's change, but reverting would undo that one too.
        var last: [String: (id: Int64, new: FieldValue?)] = [:]
        for change in changes {
            for field in change.fields where expected[field.field] != nil { last[field.field] = (change.id, field.new) }
        }
        let session = try FormSession.open(withSaveStep(form), key: recordKey, backend: store, drafts: nil)
        session.attribution = .command
        if form.mode == .edit { try session.beginEditing() }
        // A read-only field (a generated column) is not put back: its value follows the
        // others'. Said below where it does not come back. (A mode or a condition that
        // keeps a field from changing now refuses the revert, as it refuses `set`.)
        var readOnly: [String: FieldValue] = [:]
        for field in values.keys where form.field(field)?.isReadOnly == true { readOnly[field] = values.removeValue(forKey: field) }
        let conflicts = values.keys.sorted().compactMap { field -> FieldConflict? in
            let stored = session.pristineValue(field)
            guard let wrote = expected[field], stored != wrote else { return nil }
            return FieldConflict(field: field, base: wrote, mine: values[field] ?? .null, theirs: stored)
        }
        if case .change(let id) = target, let field = conflicts.first?.field, let later = last[field], later.id != id,
           later.new == session.pristineValue(field) {
            throw RecordRejected(form: form, key: key.text, reason: .changedSinceHistory(conflicts, againBy: (later.id, id)))
        }
        if !conflicts.isEmpty { throw RecordRejected(form: form, key: key.text, reason: .changedSinceHistory(conflicts)) }
        let before = session.pristine
        for field in form.fields.map(\.key) where values[field] != nil {
            // As the column held it, though the field would refuse it typed (`2.5` in an INTEGER column,
            // a PostgreSQL numeric's every digit as text).
            try session.restore(field, value: values[field]!, storedAs: storedForms[field])
        }
        let outcome = try session.save()
        for (field, old) in readOnly.sorted(by: { $0.key < $1.key }) where session.pristineValue(field) != old {
            let label = form.field(field).map { $0.format(session.pristineValue(field)) } ?? "\(session.pristineValue(field))"
            skipped.append("\(field) is read-only: it was not put back, and holds \(label.isEmpty ? "nothing" : label)")
        }
        switch outcome {
        case .saved(let changed, _):
            let changes = changed.map { FieldChange(field: $0, old: before[$0] ?? .null, new: session.pristine[$0] ?? .null) }
            return (RecordUpdate(changes: changes, warnings: session.warnings), skipped)
        case .unchanged:
            return (RecordUpdate(changes: []), skipped)
        case .invalid(let errors):
            throw RecordRejected(form: form, key: key.text, reason: .invalid(errors))
        case .conflict(let conflicts):
            throw RecordRejected(form: form, key: key.text, reason: .conflict(conflicts))
        case .notFound:
            throw RecordRejected(form: form, key: key.text, reason: .notFound)
        }
    }
}
