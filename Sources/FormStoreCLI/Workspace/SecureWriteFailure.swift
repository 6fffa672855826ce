import FormCore
import FormStorage

/// SQLite's message for a statement that bound a secure field's value can
/// quote the value: a trigger's `json_extract('{}', 'x'||NEW.password)` fails
/// with a "bad JSON path" naming the path it built from the password. So when
/// a write bound a secure value, SQLite's text is never shown (issue 20):
/// what is said comes from the extended result code and the schema (a CHECK's
/// name, a UNIQUE's columns) and the secure fields' labels. Storage problems
/// (busy, read-only, full, I/O) say nothing of the row and pass through.
enum SecureWriteFailure {
    /// The result of `body`; a row's `DatabaseError` is replaced by a
    /// `CLIError` without SQLite's text when `secureFields` (the secure fields
    /// the write bound) is not empty.
    static func guarding<T>(_ secureFields: [Field], _ body: () throws -> T) throws -> T {
        guard !secureFields.isEmpty else { return try body() }
        do {
            return try body()
        } catch let error as DatabaseError where CLIError.storageProblem(error, "") == nil {
            let message = message(for: error, secureFields: secureFields)
            throw error.isConstraint ? CLIError.validation(message) : CLIError.failure(message)
        }
    }

    /// The secure fields of `form` that hold a value in `values`: what a write of them binds.
    static func boundSecureFields(of form: Form, in values: [String: FieldValue]) -> [Field] {
        form.fields.filter { $0.isSecure && !(values[$0.key] ?? .null).isEmpty }
    }

    /// `Password (password): refused by the database (CHECK constraint strong_password); …`
    static func message(for error: DatabaseError, secureFields: [Field]) -> String {
        let labels = secureFields.map { $0.label == $0.key ? $0.key : "\($0.label) (\($0.key))" }.joined(separator: ", ")
        return "\(labels): refused by the database (\(refusal(error))); "
            + "SQLite's message is not shown, as it could quote the secure value"
    }

    /// What refused the row, from the extended code and the schema's names only.
    private static func refusal(_ error: DatabaseError) -> String {
        let named = error.message.flatMap { text in
            text.range(of: "constraint failed: ").map { String(text[$0.upperBound...]) }
        }
        switch error.extendedResultCode {
        case .SQLITE_CONSTRAINT_CHECK: return "CHECK constraint" + (named.map { " " + $0 } ?? "")
        case .SQLITE_CONSTRAINT_UNIQUE: return "UNIQUE constraint" + (named.map { " on " + $0 } ?? "")
        case .SQLITE_CONSTRAINT_PRIMARYKEY: return "PRIMARY KEY constraint" + (named.map { " on " + $0 } ?? "")
        case .SQLITE_CONSTRAINT_NOTNULL: return "NOT NULL constraint" + (named.map { " on " + $0 } ?? "")
        case .SQLITE_CONSTRAINT_FOREIGNKEY: return "FOREIGN KEY constraint"
        case .SQLITE_CONSTRAINT_TRIGGER: return "a trigger"
        default: return "\(error.extendedResultCode), from a trigger, a view or a function"
        }
    }
}
