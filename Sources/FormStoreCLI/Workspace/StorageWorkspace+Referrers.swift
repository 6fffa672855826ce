import FormCore
import FormStorage

extension StorageWorkspace {
    /// The columns of other tables (and of `table` itself) whose foreign keys
    /// point at `table` (`RecordStore.referrers(of:)`, on either backend).
    func referrers(of table: String) throws -> [String] {
        try store().referrers(of: table)
    }

    func deleteEffects(of form: Form, key: KeyArgument) throws -> [DeleteEffect] {
        try store().deleteEffects(of: form, key: try recordKey(key, of: form))
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
