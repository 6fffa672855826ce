import FormCore
import FormStorage
import FormStoragePostgres

/// Records: read straight from the store, written through a `FormSession`
/// (transformers, validation, edit modes, only what changed).
extension StorageWorkspace {
    func record(of form: Form, key: KeyArgument) throws -> StoredRecord {
        let recordKey = try recordKey(key, of: form)
        guard let record = try store().load(form, key: recordKey) else {
            throw CLIError.notFound("\(form.name): no record with key \(key.text)")
        }
        return record
    }

    func createRecord(of form: Form, inputs: [String: FieldInput]) throws -> StoredRecord {
        let store = try store()
        let keyColumns = try store.keyColumns(of: form)  // a missing table is reported before the values
        let session = FormSession.new(withSaveStep(form), backend: store, drafts: nil)
        session.attribution = .command
        try apply(inputs, to: session, policy: try emptyInputPolicy(of: form))
        let missingKeys = missingKeyErrors(session, keyColumns: keyColumns)
        if !missingKeys.isEmpty {
            let others = session.validateAll().filter { error in !missingKeys.contains { $0.field == error.field } }
            throw RecordRejected(form: form, key: nil, reason: .invalid(missingKeys + others))
        }
        // As `set` saves: a value the column's type refuses is named by its field.
        switch try save(session, key: nil) {
        case .saved(_, let key):
            return StoredRecord(key: key, values: session.pristine, version: session.baseVersion)
        case .invalid(let errors):
            throw RecordRejected(form: form, key: nil, reason: .invalid(errors))
        case .unchanged, .conflict, .notFound:
            // A new record is always inserted; these cannot happen.
            throw CLIError.failure("internal: a new \(form.name) record was not inserted")
        }
    }

    /// Key columns a new record must be given: on SQLite a declared key that is
    /// not the rowid (TEXT, composite, WITHOUT ROWID) and has no default, which
    /// SQLite would take NULL in, so the record could not be found again; on
    /// PostgreSQL one without a default, identity or serial. The person is
    /// told which key to give instead.
    private func missingKeyErrors(_ session: FormSession, keyColumns: [RecordKeyColumn]) -> [FieldError] {
        keyColumns.filter(\.mustBeGiven).map(\.name).compactMap { column -> FieldError? in
            // NULL only: '' is a key like any other (docs/fidelity.md, "A guess never blocks").
            guard session.value(column) == .null else { return nil }
            let field = session.form.field(column)
            let message = MessageCatalog.english.resolve(code: "required", field: field ?? Field(key: column, label: column),
                                                         overrides: session.form.messages, ruleMessage: nil, parameters: [:])
            return FieldError(field: column, code: "required", message: message)
        }
    }

    func updateRecord(of form: Form, key: KeyArgument, inputs: [String: FieldInput]) throws -> RecordUpdate {
        let store = try store()
        let session = try FormSession.open(withSaveStep(form), key: try recordKey(key, of: form),
                                           backend: store, drafts: nil)
        session.attribution = .command
        // `set` is a whole edit: in edit mode it begins editing, and the save ends it.
        if form.mode == .edit { try session.beginEditing() }
        let before = session.pristine
        try apply(inputs, to: session, policy: try emptyInputPolicy(of: form))
        let asked = session.current
        switch try save(session, key: key) {
        case .saved(let changed, _):
            // A field the database holds as it was (a jsonb document typed in another spelling) did not change.
            return RecordUpdate(session, before: before, asked: asked, written: changed)
        case .unchanged:
            return RecordUpdate(changes: [], warnings: session.warnings)
        case .invalid(let errors):
            throw RecordRejected(form: form, key: key.text, reason: .invalid(errors))
        case .conflict(let conflicts):
            throw RecordRejected(form: form, key: key.text, reason: .conflict(conflicts))
        case .notFound:
            throw RecordRejected(form: form, key: key.text, reason: .notFound)
        }
    }

    /// The secure columns of the tables a delete of the record reaches (`ON DELETE CASCADE`, `SET NULL`):
    /// a trigger on such a row refusing the delete reads the row's password through `OLD`.
    private func cascadingSecrets(of form: Form, key: KeyArgument) throws -> [Field] {
        let tables = Set(try deleteEffects(of: form, key: key).map(\.table))
        return try tables.sorted().flatMap { table -> [Field] in
            (try store().inferredForm(table: table)?.fields ?? []).filter(\.isSecure).map { SecureWriteFailure.field($0, of: table) }
        }
    }

    func deleteRecord(of form: Form, key: KeyArgument) throws {
        let session = try FormSession.open(form, key: try recordKey(key, of: form), backend: try store(), drafts: nil)
        if form.mode == .edit { try session.beginEditing() }
        do {
            try session.deleteKeepingSecretsOut()
        } catch let error as DatabaseError where error.isForeignKeyViolation {
            throw try foreignKeyRefusal(error.message, form: form, key: key)
        } catch let error as PostgresError where error.isForeignKeyViolation {
            throw try foreignKeyRefusal(error.message, form: form, key: key)
        } catch let error where error is DatabaseError || error is PostgresError {
            // The database's own words, the row holding no secret: looked for in the rows the delete
            // reaches, whose triggers read theirs (only now, so a delete that goes through reads nothing more).
            let cascading = (try? cascadingSecrets(of: form, key: key)) ?? []
            try SecureWriteFailure.guarding(cascading, written: []) { () throws -> Void in throw error }
        }
    }

    func editRecord(of form: Form, key: KeyArgument, frontEnd: EditFrontEnd) throws -> ExitCode {
        let store = try store()
        let session = try FormSession.open(form, key: try recordKey(key, of: form), backend: store, drafts: store,
                                           owner: DraftOwner.current)
        session.attribution = .command
        // Other writers' commits are shown between questions; a file that cannot be watched is edited all the same.
        _ = try? session.watchExternalChanges()
        defer { session.close() }
        var inEditor = false
        if case .editor = frontEnd { inEditor = true }
        let notice = ResumeNotice(form: form.name, key: session.key, children: !form.groups.isEmpty, editor: inEditor,
                                  globals: globals)
        let policy = try emptyInputPolicy(of: form)
        do {
            switch frontEnd {
            case .prompts(let prompter):
                return try PromptEdit(session: session, prompter: prompter, notice: notice, policy: policy,
                                      labels: try referenceLabels(of: form)).run()
            case .fullScreen(let environment, let messages):
                return try FullScreenEdit(session: session, notice: notice, policy: policy,
                                          labels: try referenceLabels(of: form), rowLabels: try rowReferenceLabels(of: form),
                                          environment: environment, messages: messages).run()
            case .editor(let launcher, let messages):
                return try EditorEdit(session: session, launcher: launcher, messages: messages, notice: notice,
                                      policy: policy, labels: try referenceLabels(of: form)).run()
            }
        } catch {
            // Storage failed, or the schema refused the save (a CHECK), with changes unsaved: say
            // where they are kept (the front end flushed the draft).
            let problem = CLIError.classifying(error, databasePath: globals.shownDatabase)
            guard session.hasUnsavedChanges, [.storage, .tryAgain, .validationFailed].contains(problem.exitCode) else { throw problem }
            throw problem.adding(details: notice.draftDetails(fallback: session.draftFallback,
                                                              unsaved: session.draftSnapshot.shownLines(form: session.form),
                                                              progress: EditProgress.Snapshot(session)))
        }
    }
}
