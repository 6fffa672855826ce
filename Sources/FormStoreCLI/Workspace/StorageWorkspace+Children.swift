import FormCore
import FormStorage

extension StorageWorkspace {
    func form(named name: String, children: Bool) throws -> Form {
        let form = try form(named: name)
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
