import FormCore

/// A record's child rows in output (`--children`): nested arrays in JSON and
/// NDJSON, an indented table per group in text. Each row shows the group's
/// fields; the foreign key to the parent is left out (it is the parent's key).
struct ChildRowsOutput {
    struct Group {
        var key: String
        var columns: [OutputColumn]
        var rows: [[FieldValue]]
    }

    let groups: [Group]

    init(groups: [Group]) { self.groups = groups }

    init(form: Form, record: StoredRecord) {
        self.init(form: form, rows: record.groups)
    }

    /// Each group's rows from `rows` (by group key): model values, or as
    /// stored (`RecordStore.exportedGroupRows`) for an export.
    init(form: Form, rows groupRows: [String: [[String: FieldValue]]]) {
        groups = form.groups.map { group in
            let keys = group.keyFields.filter { key in !group.foreignKey.contains(key) && group.field(key) == nil }
            let columns = keys.map { OutputColumn(key: $0) } + group.fields.filter(\.holdsValue).map(OutputColumn.init)
            let rows = (groupRows[group.key] ?? []).map { row in columns.map { row[$0.key] ?? .null } }
            return Group(key: group.key, columns: columns, rows: rows)
        }
    }

    /// The parent's JSON object with a member per group: an array of row objects.
    func appendJSON(_ row: [FieldValue], columns: [OutputColumn], options: OutputOptions, pretty: Bool,
                    to out: inout [UInt8]) {
        var parent: [UInt8] = []
        ValueText.appendJSONObject(row, columns: columns, options: options, pretty: pretty, to: &parent)
        guard !groups.isEmpty, !row.isEmpty, parent.last == UInt8(ascii: "}") else { out += parent; return }
        parent.removeLast(pretty ? 2 : 1)
        out += parent
        for (index, group) in groups.enumerated() {
            if index >= 0 { out += (pretty ? ",\n  " : ", ").utf8 }
            JSONText.appendQuoted(group.key, to: &out)
            out += (group.rows.isEmpty ? ": [" : pretty ? ": [\n    " : ": [").utf8
            for (n, child) in group.rows.enumerated() {
                if n > 0 { out += (pretty ? ",\n    " : ", ").utf8 }
                ValueText.appendJSONObject(child, columns: group.columns, options: options, to: &out)
            }
            out += (group.rows.isEmpty || !pretty ? "]" : "\n  ]").utf8
        }
        out += (pretty ? "\n}" : "}").utf8
    }

    /// Each group as `key:` and its rows as a table, indented under the record.
    func writeText(to sink: any TextSink, options: OutputOptions) {
        for group in groups {
            sink.write("\(TerminalText.neutralised(group.key)):\n")
            guard !group.rows.isEmpty else {
                sink.write("  (no rows)\n")
                continue
            }
            let buffer = BufferSink(isTerminal: sink.isTerminal)
            var table = TableWriter(columns: group.columns, sink: buffer, options: options)
            table.writeAll(group.rows)
            for line in buffer.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                sink.write("  \(line)\n")
            }
        }
    }
}
