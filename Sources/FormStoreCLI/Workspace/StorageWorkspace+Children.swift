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
        return withGroups
    }
}
