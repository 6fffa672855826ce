import FormBasics
import FormCore
import FormStorage
import FormStoragePostgres

extension StorageWorkspace {
    /// The columns of other tables (and of `table` itself) whose foreign keys
    /// point at `table`, as `orders.customer` (`t.(a, b)` for a composite
    /// key), read from `PRAGMA foreign_key_list` of every table: what a person
    /// must change or delete before a row of `table` can go. On PostgreSQL,
    /// from `pg_constraint` in one query.
    func referrers(of table: String) throws -> [String] {
        if let postgres = try store() as? PostgresFormStore { return try postgres.referrers(of: table) }
        return try sqliteStore(for: "listing referrers").database.read { conn in
            var found: [String] = []
            for name in try conn.tableNames() {
                for key in try conn.tableInfo(name).foreignKeys
                where key.destinationTable.equalsIgnoringCase(table) {
                    let columns = key.columns.count == 1 ? key.columns[0] : "(\(key.columns.joined(separator: ", ")))"
                    found.append("\(name).\(columns)")
                }
            }
            return found
        }
    }

    /// A delete the database refused for a foreign key, said with who refers
    /// to the record; `message` is the database's own, for when no referrer is found.
    func foreignKeyRefusal(_ message: String?, form: Form, key: KeyArgument) throws -> CLIError {
        let referrers = try self.referrers(of: form.tableName)
        let subject = "cannot delete \(form.name) \(key.text)"
        guard !referrers.isEmpty else { return .validation("\(subject): \(message ?? "a foreign key refers to it")") }
        return .validation("\(subject): other records refer to it through \(referrers.joined(separator: ", ")); "
            + "change or delete those first")
    }
}
