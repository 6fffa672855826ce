import FormCore
import FormStorage
import FormStoragePostgres

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
    /// No row refers to the record itself: a row the delete cascades to is
    /// referred to under no rule, and the keys pointing at those tables are named.
    func foreignKeyRefusal(_ message: String?, form: Form, key: KeyArgument) throws -> CLIError {
        let subject = "cannot delete \(form.name) \(key.text)"
        let recordKey = try recordKey(key, of: form)
        let direct = try store().referrers(of: form, key: recordKey)
        guard direct.isEmpty else { return try foreignKeyRefusal(message, subject: subject, what: "it", referrers: direct) }
        let cascaded = try store().deleteEffects(of: form, key: recordKey).filter { $0.action == .cascade }.map(\.table)
        return try foreignKeyRefusal(message, subject: subject,
                                     what: "the rows it deletes with it (of \(cascaded.joined(separator: ", ")))",
                                     referrers: try store().referrersOfCascadedRows(of: form, key: recordKey))
    }

    /// `session.save()` as `set` and `new` run it (secure values kept out
    /// of errors); a save the database refuses for a foreign key because it
    /// deletes child rows that others refer to (a dropped row of `lines`
    /// that `notes.line_id` points at) says who refers to them.
    func save(_ session: FormSession, key: KeyArgument?) throws -> SaveOutcome {
        do {
            return try session.saveKeepingSecretsOut()
        } catch let error as DatabaseError where error.isForeignKeyViolation {
            throw try foreignKeyRefusal(error.message, saving: session, key: key)
        } catch let error as PostgresError where error.isForeignKeyViolation {
            throw try foreignKeyRefusal(error.message, saving: session, key: key)
        } catch let error as PostgresError where error.sqlState.hasPrefix("22") {
            // A value the column's own type refused (a uuid, json, a numeric
            // past its precision), named by its field where one can be told.
            guard let field = Self.field(refusedBy: error.message, in: session) else { throw error }
            return .invalid([FieldError(field: field, code: "type", message: error.message.singleLine)])
        }
    }

    /// The changed field a server's refusal is about: the only one, else the
    /// one whose value the message quotes.
    /// A new record writes every field that holds a value, so each is a candidate.
    static func field(refusedBy message: String, in session: FormSession) -> String? {
        let changed = session.key != nil ? session.dirtyFields
            : session.form.fields.filter { $0.holdsValue && $0.isStored && !session.value($0.key).isEmpty }.map(\.key)
        if changed.count == 1 { return changed.first }
        return changed.first { session.form.field($0)?.isSecure != true && message.contains("\"" + session.text($0) + "\"") }
    }

    private func foreignKeyRefusal(_ message: String?, saving session: FormSession, key: KeyArgument?) throws -> CLIError {
        let removing = session.form.groups.filter { !session.removedRows($0.key).isEmpty }
        let referrers = try removing.flatMap { try self.referrers(of: $0.tableName) }
        let rows = removing.map { "\(session.removedRows($0.key).count) of \($0.key)" }
        return try foreignKeyRefusal(message, subject: "cannot save \(session.form.name) \(key?.text ?? "(new)")",
                                     what: "the rows it would delete (\(rows.joined(separator: ", ")))",
                                     referrers: referrers)
    }

    private func foreignKeyRefusal(_ message: String?, subject: String, what: String, referrers: [String]) throws -> CLIError {
        guard !referrers.isEmpty else { return .validation("\(subject): \(message ?? "a foreign key refers to it")") }
        return .validation("\(subject): other records refer to \(what) through \(referrers.joined(separator: ", ")); "
            + "change or delete those first")
    }
}
