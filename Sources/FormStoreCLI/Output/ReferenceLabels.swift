import FormCore
import FormStorage
import Synchronization

/// The labels `show` and `list` print beside a foreign key's value: the
/// referenced row's label column, as its picker shows it. Text and tables
/// write `3 (AC/DC)`, or `9 (no such artist row)` for a key that refers to no
/// row; JSON writes the record's members as they are and one more,
/// `"_labels": {"artist_id": "AC/DC"}` (`null` for a dangling key), which
/// `set --json`, `new --json` and `import` pass over, so the output can be
/// read back unchanged. `export` never writes labels: it is data.
///
/// Each distinct value is looked up once (one indexed read) and kept while
/// the command runs. A secure field gets no label (it would tell its value).
final class ReferenceLabels: Sendable, Hashable {
    /// The JSON member holding the labels.
    static let jsonMember = "_labels"
    /// At most this many values are kept per column; then the kept ones are dropped.
    private static let kept = 10_000

    private let store: any ReferencePicking
    /// The picker of each labelled column, by column key.
    private let pickers: [String: ReferencePicker]
    private let found = Mutex<[String: [FieldValue: ReferencedRow]]>([:])

    init(store: any ReferencePicking, pickers: [String: ReferencePicker]) {
        self.store = store
        self.pickers = pickers
    }

    var isEmpty: Bool { pickers.isEmpty }

    /// Whether `column` is a foreign key with a label column.
    func labels(_ column: String) -> Bool { pickers[column] != nil }

    /// The referenced rows a picker offers for `column` (of `group`'s rows,
    /// when these are a group's labels): those whose label or key holds
    /// `search`, at most `limit`; none when they cannot be read.
    func choices(_ form: Form, group: String? = nil, column: String, search: String, limit: Int) -> [Choice] {
        guard pickers[column] != nil else { return [] }
        let field = group.map { "\($0).\(column)" } ?? column
        return (try? store.choices(form, field: field, search: search.isEmpty ? nil : search, limit: limit)) ?? []
    }

    /// What `value` of `column` refers to; `nil` for NULL or an unlabelled column.
    /// A lookup that fails (the database busy) shows no label rather than
    /// failing the listing: the label is beside the data, not the data.
    func row(_ column: String, _ value: FieldValue) -> ReferencedRow? {
        guard value != .null, let picker = pickers[column] else { return nil }
        if let known = found.withLock({ $0[column]?[value] }) { return known }
        guard let row = try? store.referencedRow(picker, value: value) else { return nil }
        found.withLock { found in
            if found[column, default: [:]].count >= Self.kept { found[column] = [:] }
            found[column, default: [:]][value] = row
        }
        return row
    }

    /// The label of the row `value` refers to; `nil` for a dangling key, NULL or an unlabelled column.
    func label(_ column: String, _ value: FieldValue) -> String? {
        guard case .labelled(let label)? = row(column, value) else { return nil }
        return label
    }

    /// `(AC/DC)`, or `(no such artist row)`: what text and tables put after the value.
    func suffix(_ column: String, _ value: FieldValue) -> String? {
        switch row(column, value) {
        case .labelled(let label)?: return "(\(label))"
        case .missing?: return "(no such \(pickers[column]?.table ?? "") row)"
        case nil: return nil
        }
    }

    /// Appends `, "_labels": {…}` for a row's labelled columns with a value
    /// (nothing when the form has none, or a column of its own is named `_labels`).
    static func appendJSONMember(_ row: [FieldValue], columns: [OutputColumn], separator: String,
                                 to out: inout [UInt8]) {
        let labelled = zip(columns, row).filter { $0.0.references != nil }
        guard !labelled.isEmpty, !columns.contains(where: { $0.key == jsonMember }) else { return }
        out += (row.isEmpty ? "" : separator).utf8
        JSONText.appendQuoted(jsonMember, to: &out)
        out += ": {".utf8
        var first = true
        for (column, value) in labelled {
            guard let row = column.references?.row(column.key, value) else { continue }
            out += (first ? "" : ", ").utf8
            first = false
            JSONText.appendQuoted(column.key, to: &out)
            out += ": ".utf8
            if case .labelled(let label) = row { JSONText.appendQuoted(label, to: &out) } else { out += "null".utf8 }
        }
        out += "}".utf8
    }

    static func == (a: ReferenceLabels, b: ReferenceLabels) -> Bool { a === b }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension OutputColumn {
    /// `columns` with the labels of their foreign keys attached (a secure
    /// column's only when it is shown).
    static func labelled(_ columns: [OutputColumn], by labels: ReferenceLabels?, revealSecure: Bool) -> [OutputColumn] {
        guard let labels, !labels.isEmpty else { return columns }
        return columns.map { column in
            var column = column
            if labels.labels(column.key) && (!column.isSecure || revealSecure) { column.references = labels }
            return column
        }
    }
}

extension StorageWorkspace {
    /// Labels come from the store's pickers (SQLite's or PostgreSQL's);
    /// `nil` when no field has one (its cache's types are then never made).
    func referenceLabels(of form: Form) throws -> ReferenceLabels? {
        let store = try store()
        let pickers = try store.pickers(form).filter { key, picker in
            picker.labelColumn != nil && form.field(key)?.isStored == true
        }
        return pickers.isEmpty ? nil : ReferenceLabels(store: store, pickers: pickers)
    }

    func rowReferenceLabels(of form: Form) throws -> [String: ReferenceLabels] {
        let store = try store()
        var labels: [String: ReferenceLabels] = [:]
        for (group, pickers) in try rowPickers(of: form) {
            let labelled = pickers.filter { $0.value.labelColumn != nil }
            if !labelled.isEmpty { labels[group] = ReferenceLabels(store: store, pickers: labelled) }
        }
        return labels
    }

    /// The pickers of each group's stored row fields that are foreign keys,
    /// by group key then field key (labelled or not: the web offers both).
    func rowPickers(of form: Form) throws -> [String: [String: ReferencePicker]] {
        let store = try store()
        var found: [String: [String: ReferencePicker]] = [:]
        for group in form.groups {
            for field in group.fields where field.holdsValue && field.isStored {
                if let picker = try store.picker(form, field: "\(group.key).\(field.key)") { found[group.key, default: [:]][field.key] = picker }
            }
        }
        return found
    }
}

extension ChildRowsOutput {
    /// The groups with their rows' foreign keys labelled (`show --children`), by group key.
    func labelled(by labels: [String: ReferenceLabels], revealSecure: Bool) -> ChildRowsOutput {
        ChildRowsOutput(groups: groups.map { group in
            var group = group
            group.columns = OutputColumn.labelled(group.columns, by: labels[group.key], revealSecure: revealSecure)
            return group
        })
    }
}
