import FormCore
import FormStorage

/// Export: from SQLite, each row's cells are read in place and encoded
/// straight to bytes; any other store gives its rows as values.
extension StorageWorkspace {
    func exportStoredRows(of form: Form, columns: [String], selection: RecordSelection,
                          into encoder: inout ExportEncoder) throws {
        guard let sqlite = try store() as? FormStore else {
            try exportStoredValues(of: form, columns: columns, selection: selection, into: &encoder)
            return
        }
        var query = try query(selection, of: form, keyColumns: try sqlite.keyColumns(of: form))
        query.inStoredOrder = true
        try sqlite.forEachStoredCells(form, columns: columns, query: query) { row in
            encoder.beginRow()
            for index in 0..<row.count { encoder.append(row.cell(at: index), column: index) }
            encoder.endRow()
        }
    }
}

extension Workspace {
    /// Writes `columns` of every record `selection` chooses, exactly as stored,
    /// through `encoder` (what `export` writes); `finish` is the caller's.
    func exportStoredValues(of form: Form, columns: [String], selection: RecordSelection,
                            into encoder: inout ExportEncoder) throws {
        try forEachStoredRow(of: form, columns: columns, selection: selection) { row in
            encoder.beginRow()
            for (index, value) in row.enumerated() { encoder.append(value, column: index) }
            encoder.endRow()
        }
    }

    func exportStoredRows(of form: Form, columns: [String], selection: RecordSelection,
                          into encoder: inout ExportEncoder) throws {
        try exportStoredValues(of: form, columns: columns, selection: selection, into: &encoder)
    }
}
