import FormCore
import FormStorage
import FormStoragePostgres

extension StorageWorkspace {
    func form(named name: String, children: Bool) throws -> Form {
        let form = try form(named: name)
        guard children, form.groups.isEmpty else {
            return form.withoutGroups(unless: children)
        }
        // An inferred form (or a spec without groups): the tables that refer to it.
        if let postgres = try store() as? PostgresFormStore {
            guard let inferred = try postgres.inferredFormWithChildren(table: form.tableName) else { return form }
            var withGroups = form
            withGroups.sections += inferred.sections.filter { $0.group != nil }
            return withGroups
        }
        return try sqliteStore(for: "--children on an inferred form").database.read { conn in
            guard try conn.tableExists(form.tableName) else { return form }
            let tables = try conn.tableNames().map { try conn.tableInfo($0) }
            let inferred = FormInference.form(for: try conn.tableInfo(form.tableName), including: tables)
            var withGroups = form
            withGroups.sections += inferred.sections.filter { $0.group != nil }
            return withGroups
        }
    }
}
