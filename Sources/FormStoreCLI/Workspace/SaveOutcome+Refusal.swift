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
    init?(refusal error: any Error) {
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
            } else if let server = error as? PostgresError, let column = server.namedColumn {
                // PostgreSQL names the column it refused (NOT NULL): the field's error, beside it.
                self = .invalid([FieldError(field: column, code: "refused", message: refusal.message)])
            } else {
                self = .invalid([FieldError(field: nil, code: "refused", message: refusal.message)])
            }
        default: return nil
        }
    }

    /// One line of JSON on stdout.
    func write(to context: CommandContext) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return }
        context.terminal.output.write(String(decoding: data, as: UTF8.self) + "\n")
    }
}
