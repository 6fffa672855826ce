/// The typed door: a session read as the model type, and filled from a value.
extension FormSession {
    /// The session's values as a model: every field's current value and the
    /// record's key columns, decoded by coding key (`ModelCoder`), read from
    /// the slots the session keeps.
    ///
    /// ```swift
    /// let ticket = try session.model(as: Ticket.self)
    /// ```
    /// - throws: `DecodingError` naming a key the model needs that the form
    ///   does not hold, or holds with another type.
    public func model<Model: Decodable>(as type: Model.Type) throws -> Model {
        // Read from the slots, each coding key through the layout: a load
        // that only decodes builds no dictionary of the values (issue 14).
        var values = currentRecord
        // Usually the key's columns are fields, so already among the values:
        // the slots are then decoded as kept, not copied to add them.
        // A key column is usually the layout's first key, so it is looked for
        // there before its name is hashed (a hash was 300 instructions of a load).
        if let key, key.columns.contains(where: { values.value(of: $0, near: -1) == nil }) {
            for (column, value) in zip(key.columns, key.values) where values[column] == nil { values[column] = value }
        }
        // A group's rows become an array of structs (its elements decoded by the
        // rows' keys); every group of the form has an entry, so a form without
        // groups walks nothing.
        var rows: [String: [[String: FieldValue]]] = [:]
        if hasGroups {
            for group in form.groups { rows[group.key] = self.rows(group.key).map(\.values) }
        }
        return try ModelCoder.decode(type, from: values, rows: rows)
    }

    /// Sets every field the model has a value for, through the field's
    /// transforms and kind check, all or none, as `apply(json:)` does: a
    /// hidden, disabled or read-only field whose value would change is an
    /// error. Keys of the model that name no field (the key column of a stored
    /// record, a property the form leaves out) are not set.
    ///
    /// ```swift
    /// let session = FormSession.new(ticketForm, backend: store)
    /// try session.set(from: Ticket(title: "Printer jam", priority: .high))
    /// try session.save()
    /// ```
    /// - throws: `EncodingError` for a model with no FieldValue form;
    ///   `JSONBodyError` with every field that cannot take its value.
    public func set<Model: Encodable>(from model: Model) throws {
        let values = try ModelCoder.encode(model)
        let changes = values.filter { key, value in
            guard let field = field(key), field.holdsValue else { return false }
            return value != (current[key] ?? .null)
        }
        try apply(values: changes)
    }
}

extension FormSession {
    /// Starts a new record prefilled from a model value, through the form's
    /// transforms and kind checks (`set(from:)`); `save()` then runs its rules.
    ///
    /// - throws: `FormDefinitionError` for a mistake in the form;
    ///   `JSONBodyError` for fields that cannot take the model's values.
    public static func new<Model: Encodable>(_ form: Form, from model: Model, backend: any FormBackend,
                                             drafts: (any DraftStore)? = nil,
                                             autosave: DraftAutosaver.Policy = .init()) throws -> FormSession {
        try form.checkDefinition()
        let session = FormSession.new(form, backend: backend, drafts: drafts, autosave: autosave)
        try session.set(from: model)
        return session
    }
}

/// The typed door on any backend (`FormStore`, `MemoryBackend`).
extension FormBackend {
    /// A stored record as the model type, or `nil` when there is none.
    ///
    /// ```swift
    /// let ticket = try store.load(Ticket.self, form: ticketForm, key: RecordKey("id", 7))
    /// ```
    /// - throws: `FormDefinitionError` for a mistake in the form; `DecodingError`
    ///   when the record does not fit the model; the backend's error.
    public func load<Model: Decodable>(_ type: Model.Type, form: Form, key: RecordKey) throws -> Model? {
        do {
            return try FormSession.open(form, key: key, backend: self).model(as: type)
        } catch let error as SessionError where error.reason == .notFound {
            return nil
        }
    }

    /// Saves a model value through the form: a new record when `key` is `nil`,
    /// else the stored record with that key, changed where the value differs.
    /// Transforms, kind checks and rules run as for any session; the outcome
    /// says what happened (`.invalid` for a rule, `.conflict`, `.notFound` …).
    ///
    /// ```swift
    /// let outcome = try store.save(Ticket(title: "Printer jam"), form: ticketForm)
    /// ```
    /// - throws: `JSONBodyError` for fields that cannot take the model's values
    ///   (hidden, read-only, of another kind, or any field of a frozen form);
    ///   `SessionError` for a form in free mode, which has no save step; the
    ///   backend's error.
    public func save<Model: Encodable>(_ model: Model, form: Form, key: RecordKey? = nil) throws -> SaveOutcome {
        try Self.refuseTypedSave(form)
        guard let key else { return try FormSession.new(form, from: model, backend: self).save() }
        let session: FormSession
        do {
            session = try FormSession.open(form, key: key, backend: self)
        } catch let error as SessionError where error.reason == .notFound {
            return .notFound
        }
        try session.take(model)
        return try session.save()
    }

    /// `load(_:form:key:)`, awaited: the backend's async `load` (a `FormStore`
    /// reads on its own threads, the task waiting off the cooperative pool).
    ///
    /// ```swift
    /// let ticket = try await store.load(Ticket.self, form: ticketForm, key: RecordKey("id", 7))
    /// ```
    nonisolated(nonsending)
    public func load<Model: Decodable>(_ type: Model.Type, form: Form, key: RecordKey) async throws -> Model? {
        do {
            return try await FormSession.open(form, key: key, backend: self).model(as: type)
        } catch let error as SessionError where error.reason == .notFound {
            return nil
        }
    }

    /// `save(_:form:key:)`, awaited: the read and the write go through the
    /// backend's async API; the outcomes and errors are the blocking call's.
    ///
    /// ```swift
    /// let outcome = try await store.save(Ticket(title: "Printer jam"), form: ticketForm)
    /// ```
    nonisolated(nonsending)
    public func save<Model: Encodable>(_ model: Model, form: Form, key: RecordKey? = nil) async throws -> SaveOutcome {
        try Self.refuseTypedSave(form)
        guard let key else { return try await FormSession.new(form, from: model, backend: self).save() }
        let session: FormSession
        do {
            session = try await FormSession.open(form, key: key, backend: self)
        } catch let error as SessionError where error.reason == .notFound {
            return .notFound
        }
        try session.take(model)
        return try await session.save()
    }

    private static func refuseTypedSave(_ form: Form) throws {
        if form.mode == .free {
            throw SessionError.mode("\(form.name) is in free mode: each change is saved as it is set, so there is no one save of a value")
        }
    }
}

extension FormSession {
    /// A model value taken into an opened record, as a typed save does (an
    /// edit-mode form begins editing first).
    fileprivate func take<Model: Encodable>(_ model: Model) throws {
        if form.mode == .edit { try beginEditing() }
        try set(from: model)
    }
}
