import FormCore
import FormStorage
import FormStoragePostgres
import FoundationEssentials

/// A save's outcome where the store, not the form, refused it: what `set` and
/// `new --format json`, the web API and `edit --editor` report, in the
/// library's `SaveOutcome` shape.
extension SaveOutcome {
    /// A refusal from past the form (no such record, the schema's CHECK or
    /// foreign key) as an outcome; `nil` for a storage or usage error, which is none.
    /// With `form`, a CHECK whose expression names one of its fields is that field's error.
    init?(refusal error: any Error, form: Form? = nil) {
        let refusal = CLIError.classifying(error)
        switch refusal.exitCode {
        case .notFound: self = .notFound
        case .validationFailed:
            // A value referring to no row, or one its column would store as another number, is its
            // field's error, as the JSON door's are.
            if let refused = error as? FormStoreError, let field = refused.field {
                let message = refused.message.hasPrefix(field + ": ") ? String(refused.message.dropFirst(field.count + 2)) : refused.message
                let code = refused.reason == .inexactNumber ? "number.exact" : "reference"
                self = .invalid([FieldError(field: field, code: code, message: message)])
            } else if let server = error as? PostgresError, server.isCheckViolation || server.isUniqueViolation,
                      let field = form?.fields.first(where: { server.message.hasPrefix($0.key + ": ") })?.key {
                // A CHECK reading one written column, named first by the store (`PostgresTableMapping.namedRefusal`).
                let message = String(refusal.message.dropFirst(field.count + 2))
                self = .invalid([FieldError(field: field, code: "refused", message: message)])
            } else if let server = error as? PostgresError, let column = server.namedColumn {
                // PostgreSQL names the column it refused (NOT NULL): the field's error, beside it.
                self = .invalid([FieldError(field: column, code: "refused", message: refusal.message)])
            } else {
                let field = form.flatMap { SaveOutcome.checkedField(refusal.message, of: $0) }
                self = .invalid([FieldError(field: field, code: "refused", message: refusal.message)])
            }
        default: return nil
        }
    }

    /// The field a refusal of SQLite's CHECK is about: the one field of
    /// `form` its expression names (`CHECK constraint failed: age >= 0`, as
    /// SQLite quotes it); `nil` for a named constraint, one naming several
    /// fields or none, or any other refusal.
    static func checkedField(_ message: String, of form: Form) -> String? {
        guard let start = message.firstRange(of: "CHECK constraint failed: ") else { return nil }
        var words: Set<String> = []
        var word = ""
        var quote: Character?
        for ch in message[start.upperBound...] {
            if let open = quote {
                if ch == open || (open == "[" && ch == "]") { words.insert(word.lowercased()); word = ""; quote = nil } else { word.append(ch) }
            } else if ch == "\"" || ch == "`" || ch == "[" {
                quote = ch
            } else if ch.isLetter || ch.isNumber || ch == "_" {
                word.append(ch)
            } else {
                if !word.isEmpty { words.insert(word.lowercased()) }
                word = ""
            }
        }
        if !word.isEmpty { words.insert(word.lowercased()) }
        let named = form.fields.filter { $0.holdsValue && words.contains($0.key.lowercased()) }.map(\.key)
        return Set(named).count == 1 ? named.first : nil
    }

    /// One line of JSON on stdout.
    func write(to context: CommandContext) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return }
        context.terminal.output.write(String(decoding: data, as: UTF8.self) + "\n")
    }
}
