import FormCore
import FormStorage
import FormStoragePostgres

/// The database's message for a write of a row holding a secure value can
/// quote the value: a trigger's `json_extract('{}', 'x'||NEW.password)` fails
/// with a "bad JSON path" naming the path it built from the password, and a
/// trigger reads the stored password through `NEW` whatever the write changed.
/// So when the row holds a secure value, text a trigger or a function made is never
/// shown (issue 20): what is said comes from the extended result code and the
/// secure fields' labels. SQLite builds the messages of CHECK, NOT NULL,
/// UNIQUE, PRIMARY KEY and FOREIGN KEY failures from the schema alone (the
/// constraint's name, its columns), never from a value, so those stay as
/// they are; so do storage problems (busy, read-only, full, I/O).
enum SecureWriteFailure {
    /// The result of `body`; a row's `DatabaseError` is replaced by a
    /// `CLIError` without SQLite's text when `secureFields` (the secure fields
    /// the row holds a value for) is not empty.
    ///
    /// - parameter secrets: the secure values the row holds, as text: a PostgreSQL
    ///   data exception (class 22: a value its column's type refuses) quotes
    ///   the one value it refused as given, so one that quotes none of them
    ///   is shown as it is, and the field it names is not a password's.
    /// - parameter written: those of `secureFields` the write changes; a refusal is said
    ///   of them, or, when none is, of the row (a trigger refusing another field's value
    ///   was said of the password, which nobody had touched).
    static func guarding<T>(_ secureFields: [Field], written: [Field]? = nil, secrets: [String] = [],
                            _ body: () throws -> T) throws -> T {
        guard !secureFields.isEmpty else { return try body() }
        do {
            return try body()
        } catch let error as PostgresError where !secrets.isEmpty && quotesNone(error, of: secrets) {
            throw error
        } catch let error as DatabaseError where mayQuoteValues(error) {
            let message = message(for: error, secureFields: secureFields, written: written ?? secureFields)
            throw error.isConstraint ? CLIError.validation(message) : CLIError.failure(message)
        } catch let error as PostgresError where !error.isConstraint && !error.isConnectionLost && !error.isRetryable && !error.isLockTimeout {
            // A type error or a function's message may quote the value it refused.
            throw CLIError.validation(said(of: written ?? secureFields, held: secureFields,
                                           "refused by the database (SQLSTATE \(error.sqlState)); PostgreSQL's message is not shown"))
        }
    }

    /// A PostgreSQL type error (class 22, which quotes the one value it
    /// refused) quoting none of `secrets`: shown as it is, the field it
    /// names being no secure one's.
    static func quotesNone(_ error: PostgresError, of secrets: [String]) -> Bool {
        error.sqlState.hasPrefix("22") && !secrets.contains { error.message.contains($0) }
    }

    /// True for an error whose text a trigger or a function may have built
    /// from the row's values: not a schema constraint's, nor the file's.
    static func mayQuoteValues(_ error: DatabaseError) -> Bool {
        guard CLIError.storageProblem(error, "") == nil else { return false }
        let schemaCodes: [ResultCode] = [.SQLITE_CONSTRAINT_CHECK, .SQLITE_CONSTRAINT_NOTNULL, .SQLITE_CONSTRAINT_UNIQUE,
                                         .SQLITE_CONSTRAINT_PRIMARYKEY, .SQLITE_CONSTRAINT_FOREIGNKEY]
        return !schemaCodes.contains(error.extendedResultCode)
    }


    /// `Password (password): refused by the database (a trigger); SQLite's message is not shown …`,
    /// or, when the write changes no secure field, `Refused by the database (a trigger); … as
    /// it could quote a secure value the row holds (Password (password))`.
    static func message(for error: DatabaseError, secureFields: [Field], written: [Field]? = nil) -> String {
        said(of: written ?? secureFields, held: secureFields,
             "refused by the database (\(refusal(error))); SQLite's message is not shown")
    }

    private static func said(of written: [Field], held: [Field], _ refusal: String) -> String {
        guard written.isEmpty else {
            return "\(written.map(FieldDisplay.named).joined(separator: ", ")): \(refusal), as it could quote the secure value"
        }
        return refusal.prefix(1).uppercased() + refusal.dropFirst() + ", as it could quote a secure value the row holds ("
            + held.map(FieldDisplay.named).joined(separator: ", ") + ")"
    }

    /// A secure field of another row a write reaches (a group's row, a row a delete
    /// cascades to), named with its owner: `login.password`.
    static func field(_ field: Field, of owner: String) -> Field {
        var named = field
        (named.key, named.label) = ("\(owner).\(field.key)", "\(owner).\(field.key)")
        return named
    }

    /// What refused the row, from the extended code only.
    private static func refusal(_ error: DatabaseError) -> String {
        error.extendedResultCode == .SQLITE_CONSTRAINT_TRIGGER
            ? "a trigger" : "\(error.extendedResultCode), from a trigger, a view or a function"
    }
}
