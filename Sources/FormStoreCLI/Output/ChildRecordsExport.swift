import FormCore

extension CommandContext {
    /// `export --children`: each parent row as `export` writes it (every
    /// column exactly as stored), with a member per group holding its child
    /// rows as an array of objects (the foreign key to the parent left out).
    /// JSON is an array of such objects, NDJSON one per line. CSV cannot nest
    /// rows, so it is refused before anything is read.
    ///
    /// Child rows carry their key columns, so that `import --children` (or
    /// `set FORM KEY --json --children`) updates them in place and reading an
    /// unchanged export back writes nothing.
    func exportRecordsWithChildren(of form: Form, from workspace: any Workspace, selection: RecordSelection,
                                   format: OutputFormat, revealSecure: Bool) throws {
        guard format == .json || format == .ndjson else {
            throw CLIError.usage("--children needs --format json or ndjson: child rows do not fit in a flat CSV row")
        }
        var columns = OutputColumn.columns(of: form)
        if !revealSecure { columns.removeAll(where: \.isSecure) }
        let keyIndices = try form.primaryKey.map { column in
            guard let index = columns.firstIndex(where: { $0.key == column }) else {
                throw CLIError.validation("\(form.name): key column \(column) is not exported, so its child rows cannot be found")
            }
            return index
        }
        let options = outputOptions(revealSecure: revealSecure)
        let sink = terminal.output
        var count = 0
        var line: [UInt8] = []
        try workspace.forEachStoredRow(of: form, columns: columns.map(\.key), selection: selection) { row in
            let key = RecordKey(columns: form.primaryKey, values: keyIndices.map { row[$0] })
            // As stored, as the parent's columns are: a date kept as `2024-3-5` or a Julian day is exported so.
            var rows = ChildRowsOutput(form: form, rows: try workspace.exportedGroupRows(of: form, key: key))
            if !revealSecure { rows = rows.omittingSecure() }
            line.removeAll(keepingCapacity: true)
            if format == .json { line += (count == 0 ? "[\n  " : ",\n  ").utf8 }
            rows.appendJSON(row, columns: columns, options: options, pretty: false, to: &line)
            if format == .ndjson { line.append(UInt8(ascii: "\n")) }
            sink.write(utf8: line)
            count += 1
        }
        if format == .json { sink.write(count == 0 ? "[]\n" : "\n]\n") }
        sink.flush()
    }
}

extension ChildRowsOutput {
    /// The groups without their secure fields: an export is read back by
    /// import, and a mask would be imported as the value.
    func omittingSecure() -> ChildRowsOutput {
        ChildRowsOutput(groups: groups.map { group in
            let kept = group.columns.indices.filter { !group.columns[$0].isSecure }
            return Group(key: group.key, columns: kept.map { group.columns[$0] },
                         rows: group.rows.map { row in kept.map { row[$0] } })
        })
    }
}

extension CommandContext {
    /// One record with its child rows, as `show --children` prints it: JSON
    /// with nested arrays, or the record's fields then an indented table per group.
    func printRecordWithChildren(_ record: StoredRecord, of form: Form, json: Bool, options: OutputOptions,
                                 labels: ReferenceLabels? = nil, rowLabels: [String: ReferenceLabels] = [:]) {
        let columns = OutputColumn.labelled(OutputColumn.columns(of: form), by: labels, revealSecure: options.revealSecure)
        let rows = ChildRowsOutput(form: form, record: record).labelled(by: rowLabels, revealSecure: options.revealSecure)
        let values = columns.map { record.values[$0.key] ?? .null }
        if json {
            var out: [UInt8] = []
            rows.appendJSON(values, columns: columns, options: options, pretty: true, to: &out)
            out.append(UInt8(ascii: "\n"))
            terminal.output.write(utf8: out)
        } else {
            var writer = TextRecordWriter(columns: columns, sink: terminal.output, options: options)
            writer.writeAll([values])
            rows.writeText(to: terminal.output, options: options)
        }
        terminal.output.flush()
    }
}
