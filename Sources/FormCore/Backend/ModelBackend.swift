/// Lets an editing session work on a model — a Codable struct, a dictionary or
/// a settings store — through its `FormBinding`: loading reads the model,
/// saving writes the changed fields back, with the same conflict check as a
/// database (a field changed in the model since it was read is a conflict).
///
/// ```swift
/// let binding = try FormBinding(form: form, model: StructModel(profile))
/// let session = try FormSession.bound(to: binding)
/// try session.set("age", input: "37")
/// _ = try session.save()
/// binding.model.model.age   // 37
/// ```
///
/// `Sendable` when its model is, as its binding is.
public struct ModelBackend<Model: FormModel>: FormBackend {
    /// The one record a model is: its key has this single column.
    public static var key: RecordKey { RecordKey("model", "model") }

    public let binding: FormBinding<Model>

    public init(binding: FormBinding<Model>) {
        self.binding = binding
    }

    public func load(_ form: Form, key: RecordKey) throws -> StoredRecord? {
        StoredRecord(key: Self.key, values: binding.read())
    }

    public func insert(_ form: Form, values: [String: FieldValue], deletingDraft: String?) throws -> StoredRecord {
        try binding.write(values)
        return StoredRecord(key: Self.key, values: binding.read())
    }

    public func update(_ form: Form, key: RecordKey, changes: [String: FieldValue], base: SaveBase,
                       deletingDraft: String?) throws -> UpdateResult {
        // The binding's lock is not held across check and write; a model is
        // edited by one session at a time, and the check still catches changes
        // made elsewhere since the session read it.
        let conflicts = base.conflicts(changes: changes, stored: binding.read())
        guard conflicts.isEmpty else { return .conflict(conflicts) }
        try binding.write(changes)
        return .saved(StoredRecord(key: Self.key, values: binding.read()))
    }

    /// A model cannot be deleted.
    public func delete(_ form: Form, key: RecordKey, deletingDraft: String?) throws -> Bool { false }
}

extension ModelBackend: Sendable where Model: Sendable {}

extension FormSession {
    /// A session editing the model behind `binding`. After the model changes
    /// elsewhere, `reload()` shows the change (fields the person edited keep
    /// their edits). A save validates every field (`SaveValidation.everything`):
    /// the model's untouched values are the application's defaults, not a row
    /// another program stored.
    ///
    /// A field bound to a property that cannot hold nothing (a struct's
    /// `age: Int`, no `Optional`) refuses NULL, as a NOT NULL column does: a
    /// cleared field is `required`, never a save the model throws on.
    public static func bound<Model: FormModel>(to binding: FormBinding<Model>, drafts: (any DraftStore)? = nil,
                                              autosave: DraftAutosaver.Policy = .init()) throws -> FormSession {
        let model = binding.model
        let form = binding.form.markingNotNull { !model.acceptsNull(forKey: $0.key) }
        let session = try open(form, key: ModelBackend<Model>.key, backend: ModelBackend(binding: binding),
                               drafts: drafts, autosave: autosave)
        session.saveValidation = .everything
        return session
    }
}

extension Form {
    /// The form with `isNotNull` set on each stored field `refusesNull` names.
    func markingNotNull(where refusesNull: (Field) -> Bool) -> Form {
        var form = self
        for s in form.sections.indices where form.sections[s].group == nil {
            for f in form.sections[s].fields.indices {
                let field = form.sections[s].fields[f]
                if field.isStored && field.holdsValue && !field.isNotNull && refusesNull(field) {
                    form.sections[s].fields[f].isNotNull = true
                }
            }
        }
        return form
    }
}
