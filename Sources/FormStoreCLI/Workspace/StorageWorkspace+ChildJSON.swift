import FoundationEssentials
import FormCore
import FormStorage

/// Records with their child rows (`--children`): read with every group, and
/// written from one JSON object through the library's JSON door
/// (`FormSession.apply(values:)`, `apply(json:)` for the groups), so a
/// group's array states the whole group (a row with its key updated, one
/// without inserted, a stored row left out deleted) and the parent and every
/// row change are one transaction.
extension StorageWorkspace {
    func exportedGroupRows(of form: Form, key: RecordKey) throws -> [String: [[String: FieldValue]]] {
        try store().exportedGroupRows(form, key: key)
    }

    func saveJSON(_ body: [UInt8], of form: Form, key: KeyArgument?) throws -> JSONSave {
        let store = try store()
        let session: FormSession
        if let key {
            session = try FormSession.open(withSaveStep(form), key: try recordKey(key, of: form), backend: store, drafts: nil)
            if form.mode == .edit { try session.beginEditing() }
        } else {
            session = FormSession.new(withSaveStep(form), backend: store, drafts: nil)
        }
        // The history names the login through `command`, as `set FIELD=VALUE` does.
        session.attribution = .command
        let before = session.pristine
        let rowsBefore = Dictionary(uniqueKeysWithValues: form.groups.map { ($0.key, session.rows($0.key).count) })
        let (parsed, parsedRows) = try JSONRecord.only(body, groups: Set(form.groups.map(\.key)))
        let input = InputRecord(line: 1, values: parsed, rows: parsedRows).withEmptyGroups(of: form)
        var values = input.values.dictionary
        // A list for a text field is its JSON text, as `import`, `new --json` and `FIELD:=` store it,
        // and a number the field takes as text is taken as written (`12.50`), as there.
        for (key, value) in values {
            guard let field = form.field(key) else { continue }
            if let written = parsed.writtenNumber(key), !field.readsHexAsBytes,
               field.parseInput(written, in: form) == .success(.text(written)) {
                values[key] = .text(written)
            } else {
                values[key] = field.storedList(value, in: form)
            }
        }
        let rows = input.rows
        // An exported record names its own key: that is no change (a different key is, and is refused).
        if let stored = session.key {
            for (column, value) in zip(stored.columns, stored.values) where values[column] == value { values[column] = nil }
        }
        do {
            try session.apply(values: values)
            if !rows.isEmpty { try session.apply(json: Data(ChildRowsJSON.body(rows))) }
        } catch {
            throw RecordRejected(form: form, key: key?.text, reason: .invalid(error.errors))
        }
        let changedRows = Dictionary(uniqueKeysWithValues: form.groups.map { ($0.key, session.isGroupDirty($0.key)) })
        let asked = session.current
        switch try save(session, key: key) {
        case .saved(let changed, let savedKey):
            // A stored record's: every field the save changed, as `set FIELD=VALUE` tells it (a
            // trigger's too, and none the database kept as it was); a new record's: those it was given.
            var update = key == nil
                ? RecordUpdate(changes: changed.filter { form.field($0) != nil }
                    .map { FieldChange(field: $0, old: before[$0] ?? .null, new: session.pristine[$0] ?? .null) },
                               warnings: session.warnings)
                : RecordUpdate(session, before: before, asked: asked, written: changed)
            // A group's change is told by its row count before and after.
            for group in form.groups where changedRows[group.key] == true {
                update.changes.append(FieldChange(field: group.key, old: .text("\(rowsBefore[group.key] ?? 0) row(s)"),
                                                  new: .text("\(session.rows(group.key).count) row(s)")))
            }
            let record = try store.load(form, key: savedKey)
                ?? StoredRecord(key: savedKey, values: session.pristine, version: session.baseVersion)
            return JSONSave(record: record, update: update)
        case .unchanged:
            guard let key, let record = try store.load(form, key: try recordKey(key, of: form)) else {
                throw CLIError.failure("internal: a new \(form.name) record was not inserted")
            }
            return JSONSave(record: record, update: RecordUpdate(changes: [], warnings: session.warnings))
        case .invalid(let errors):
            throw RecordRejected(form: form, key: key?.text, reason: .invalid(errors))
        case .conflict(let conflicts):
            throw RecordRejected(form: form, key: key?.text, reason: .conflict(conflicts))
        case .notFound:
            throw RecordRejected(form: form, key: key?.text, reason: .notFound)
        }
    }
}

/// What a JSON save wrote: the record as stored now (with its rows) and the changes.
struct JSONSave {
    var record: StoredRecord
    var update: RecordUpdate
}
