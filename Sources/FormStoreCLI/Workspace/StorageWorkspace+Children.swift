import FormCore
import FormStorage

extension StorageWorkspace {
    /// An inferred form's date fields over columns that hold no value yet
    /// read the first records' values (`RecordStore.readingDates(of:asIn:)`),
    /// so an export imports into an empty copy of its table.
    func form(importing name: String, children: Bool, firstRecords: (Form) throws -> [InputRecord]) throws -> Form {
        let (found, isInferred) = try lookUp(name)
        let form = try withChildren(found, children)
        guard isInferred else { return form }
        return try store().readingDates(of: form) { key in
            try firstRecords(form).compactMap { record in
                if case .text(let text)? = record.values[key] { DatabaseValue.text(text) } else { nil }
            }
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
