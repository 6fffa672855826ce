import FormCore
import FormStorage

extension StorageWorkspace {
    /// An inferred form's date fields over columns that hold no value yet
    /// read the first records' values (`RecordStore.readingDates(of:asIn:)`),
    /// so an export imports into an empty copy of its table: each such
    /// field's (a group's row field's too) first 20 values that are not
    /// NULL, as the stored ones are read, among the first 1000 records.
    func form(importing name: String, children: Bool, firstRecords: FirstRecords) throws -> Form {
        let (found, isInferred) = try lookUp(name)
        let form = try withChildren(found, children)
        guard isInferred else { return form }
        let store = try store()
        let names = RecordImporter.expectedNames(of: CompiledForm.of(form).pipeline,
                                                 keyColumns: try store.keyColumns(of: form).map(\.name))
        var read: [InputRecord]?
        return try store.readingDates(of: form) { group, key in
            // Read once, for every field asked about: the look ahead stops when each has its twenty.
            let records = read ?? firstRecords(form, names)
            read = records
            let values = records.lazy.flatMap { record -> [FieldValue] in
                guard let group else { return record.values[key].map { [$0] } ?? [] }
                return (record.rows[group.key] ?? []).compactMap { $0[key] }
            }
            // Text as it came; another value (an epoch) as a number, which only counts toward the twenty.
            return values.compactMap { value -> DatabaseValue? in
                switch value {
                case .null: nil
                case .text(let text): .text(text)
                default: .integer(0)
                }
            }.prefix(20).map { $0 }
        }
    }

    func form(named name: String, children: Bool) throws -> Form { try withChildren(form(named: name), children) }

    /// `form` with a group for each table that refers to it when `children`
    /// and it has none; without its groups otherwise.
    private func withChildren(_ form: Form, _ children: Bool) throws -> Form {
        guard children, form.groups.isEmpty else {
            return form.withoutGroups(unless: children)
        }
        // An inferred form (or a spec without groups): the tables that refer to it.
        guard let inferred = try store().inferredFormWithChildren(table: form.tableName) else { return form }
        var withGroups = form
        withGroups.sections += inferred.sections.filter { $0.group != nil }
        // Said, not silently passed over: a table referring by two keys has rows of two kinds of parent.
        for table in try store().childTablesLeftOut(of: form.tableName) {
            warnings?.write("formstore: note: the rows of \(table) are left out of --children: it refers to "
                            + "\(form.tableName) by more than one key; a spec's group names the one meant "
                            + "(\"foreignKey\", docs/spec.md)\n")
        }
        return withGroups
    }
}
