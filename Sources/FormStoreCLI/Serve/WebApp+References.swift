import FoundationEssentials
import FormCore
import FormStorage
import FormWeb

/// Foreign keys as pickers on the pages: the store's picker, choices and
/// labels turned into what FormWeb draws, the search route behind a large
/// table's `<datalist>`, and a value referring to no row shown beside its field.
extension WebApp {
    /// The pickers of the session's foreign-key fields and of its rows'
    /// foreign-key cells (by `GroupPath.position`), each with the label of
    /// the row its value refers to; `refused` (the store's `missingReference`
    /// error) is put beside its field, or beside each cell holding the value
    /// it names. Labels come from `ReferenceLabels`, as `show` prints them.
    func references(_ session: FormSession, refused: FormStoreError? = nil) throws
        -> (fields: [String: WebReference], cells: [String: WebReference]) {
        let store = try workspace.store()
        let form = session.form
        let refusedColumn = refused?.field
        var fields: [String: WebReference] = [:]
        let pickers = try store.pickers(form).filter { form.field($0.key)?.isStored == true }
        let labels = ReferenceLabels(store: store, pickers: pickers.filter { $0.value.labelColumn != nil })
        for key in pickers.keys {
            var reference = try offered(store, form, field: key)
            reference.label = labels.label(key, session.value(key))
            if refusedColumn == key { reference.problem = refused?.message }
            fields[key] = reference
        }
        var cells: [String: WebReference] = [:]
        for (group, pickers) in try workspace.rowPickers(of: form) {
            let labels = ReferenceLabels(store: store, pickers: pickers.filter { $0.value.labelColumn != nil })
            for (field, picker) in pickers {
                let offered = try offered(store, form, field: "\(group).\(field)")
                for (index, row) in session.rows(group).enumerated() {
                    var reference = offered
                    reference.label = labels.label(field, row[field])
                    // The store names the first value it refused: the cells holding it are refused.
                    if let refused, refusedColumn == field, fields[field]?.problem == nil, row[field] != .null,
                       refused.message.hasSuffix(" = " + RecordKey(picker.column, row[field]).description) {
                        reference.problem = refused.message
                    }
                    cells[GroupPath.position(group, index + 1, field)] = reference
                }
            }
        }
        return (fields, cells)
    }

    /// What a foreign-key field (`group.field` for a row's) offers: every
    /// referenced row when they are few, else the search route.
    private func offered(_ store: any ReferencePicking, _ form: Form, field: String) throws -> WebReference {
        let few = try store.choices(form, field: field, search: nil, limit: WebReference.selectLimit + 1)
        return few.count <= WebReference.selectLimit ? WebReference(choices: few)
            : WebReference(searchHref: "/api/forms/\(Self.pathSegment(form.name))/choices/\(Self.pathSegment(field))")
    }

    /// Saves `session`, or answers the store's refusal of a value referring to no row.
    func savingReferences(_ session: FormSession) throws -> Result<SaveOutcome, SaveRefusal> {
        do {
            return .success(try session.saveKeepingSecretsOut())
        } catch let error as FormStoreError where error.reason == .missingReference {
            return .failure(.reference(error))
        } catch {
            // The schema refused it (a CHECK, UNIQUE, NOT NULL): the form is drawn again with what the person typed.
            let refusal = CLIError.classifying(error, databasePath: workspace.globals.shownDatabase)
            guard refusal.exitCode == .validationFailed else { throw error }
            // A CHECK naming one field is that field's error, beside it, as a rule's would be.
            if let field = SaveOutcome.checkedField(refusal.message, of: session.form) {
                session.refuse(field, with: FieldError(field: field, code: "refused", message: refusal.message))
                return .failure(.schema(refusal.message, field: field))
            }
            return .failure(.schema(refusal.message, field: nil))
        }
    }

    /// `GET /api/forms/NAME/choices/FIELD?search=TEXT`: what the field's picker
    /// offers, `[{"value": …, "label": …}]`, at most 20, for a `<datalist>`.
    func choices(_ name: String, field: String, search: String?) throws -> HTTPResponse {
        let choices = try locked { () throws -> [Choice] in
            let form = try self.form(named: name)
            let store = try workspace.store()
            guard try store.picker(form, field: field) != nil else {
                throw CLIError.notFound("\(name): \(field) is no foreign key")
            }
            return try store.choices(form, field: field, search: search, limit: 20)
        }
        let rows = choices.map { ["value": PlainJSONValue($0.value), "label": PlainJSONValue(.text($0.label))] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return .json(200, try encoder.encode(rows))
    }

    /// The labels of a page of records' foreign-key values, by field then value.
    func referenceLabels(_ form: Form, records: [StoredRecord]) throws -> [String: [FieldValue: String]] {
        guard let labels = try workspace.referenceLabels(of: form) else { return [:] }
        var found: [String: [FieldValue: String]] = [:]
        for field in form.fields where labels.labels(field.key) {
            var byValue: [FieldValue: String] = [:]
            for value in Set(records.compactMap({ $0.values[field.key] })) {
                byValue[value] = labels.label(field.key, value)
            }
            found[field.key] = byValue
        }
        return found
    }
}

/// Why the database refused a page's save: a value referring to no row
/// (shown beside its field), or another rule of the schema (shown above the form).
enum SaveRefusal: Error {
    case reference(FormStoreError)
    /// The schema's refusal; `field` when it is about one field (a CHECK on its column), shown beside it.
    case schema(String, field: String?)

    var reference: FormStoreError? {
        if case .reference(let error) = self { return error }
        return nil
    }

    /// The notice above the form: nothing was saved, and why.
    var notice: String {
        guard case .schema(let message, nil) = self else { return "" }
        return "<div class=\"notice conflict\" role=\"alert\"><p>Nothing was saved: \(HTML.escape(message))</p></div>\n"
    }
}
