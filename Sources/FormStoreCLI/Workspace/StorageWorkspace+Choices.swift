import FormCore
import FormStorage

extension StorageWorkspace {
    func choices(of form: Form, field: String, search: String?, limit: Int) throws -> [Choice] {
        let known: Bool
        if let dot = field.firstIndex(of: "."), let group = form.group(String(field[..<dot])) {
            let name = String(field[field.index(after: dot)...])
            known = group.field(name) != nil || group.keyFields.contains(name)
        } else {
            known = form.field(field) != nil
        }
        guard known else { throw CLIError.unknownField(field, of: form) }
        let store = try store()
        guard try store.picker(form, field: field) != nil else {
            throw CLIError.usage("\(form.name): \(field) is not a foreign key, so it offers no rows to pick")
        }
        return try store.choices(form, field: field, search: search, limit: limit)
    }
}
