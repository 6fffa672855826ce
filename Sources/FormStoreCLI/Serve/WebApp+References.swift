import Foundation
import FormCore
import FormStorage
import FormWeb

/// Foreign keys as pickers on the pages: the store's picker, choices and
/// labels turned into what FormWeb draws, the search route behind a large
/// table's `<datalist>`, and a value referring to no row shown beside its field.
extension WebApp {
    /// The pickers of `form`'s foreign-key fields for the values `value` gives;
    /// `refused` (the store's `missingReference` error) is put beside its field.
    func references(_ form: Form, value: (String) -> FieldValue, refused: FormStoreError? = nil) throws -> [String: WebReference] {
        let store = try workspace.store()
        var references: [String: WebReference] = [:]
        for field in form.fields where field.holdsValue && field.isStored {
            guard try store.picker(form, field: field.key) != nil else { continue }
            let few = try store.choices(form, field: field.key, search: nil, limit: WebReference.selectLimit + 1)
            var reference = few.count <= WebReference.selectLimit ? WebReference(choices: few)
                : WebReference(searchHref: "/api/forms/\(Self.pathSegment(form.name))/choices/\(Self.pathSegment(field.key))")
            reference.label = try store.referenceLabel(form, field: field.key, value: value(field.key))
            if let refused, Self.refusedField(refused) == field.key { reference.problem = refused.message }
            references[field.key] = reference
        }
        return references
    }

    /// The field a `missingReference` error names: its message starts with the column.
    static func refusedField(_ error: FormStoreError) -> String? {
        guard error.reason == .missingReference, let colon = error.message.range(of: ": ") else { return nil }
        return String(error.message[..<colon.lowerBound])
    }

    /// Saves `session`, or answers the store's refusal of a value referring to no row.
    func savingReferences(_ session: FormSession) throws -> Result<SaveOutcome, FormStoreError> {
        do {
            return .success(try session.saveKeepingSecretsOut())
        } catch let error as FormStoreError where error.reason == .missingReference {
            return .failure(error)
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
        let store = try workspace.store()
        var labels: [String: [FieldValue: String]] = [:]
        for field in form.fields where field.holdsValue && field.isStored {
            guard try store.picker(form, field: field.key)?.labelColumn != nil else { continue }
            var byValue: [FieldValue: String] = [:]
            for value in Set(records.compactMap({ $0.values[field.key] })) where value != .null {
                byValue[value] = try store.referenceLabel(form, field: field.key, value: value)
            }
            labels[field.key] = byValue
        }
        return labels
    }
}
