import FormBasics
import FormCore
import FormStorage
import FoundationEssentials
import Glibc

extension CLIError {
    /// Turns any error a command throws into what is reported: the one place
    /// where other modules' errors get their message and exit code.
    ///
    /// | error | exit |
    /// | --- | --- |
    /// | `DatabaseError` busy or locked | 75 |
    /// | `DatabaseError` read-only, full, I/O, corrupt, not a database, cannot open; `PrivateDirectoryError`; `SidecarError` (naming the sidecar); `MigrationError` unreadable file | 74 |
    /// | `DatabaseError` constraint (SQLite's message), too big, malformed JSON; a schema needing `--trust-schema` | 65 |
    /// | `FormStoreError` no primary key (a command needing a key on a keyless view or table) | 64 |
    /// | `SessionError` not found; `FormStoreError` unknown table; `MigrationError` unreadable folder | 66 |
    /// | `SessionError` refusals; `FormStoreError` others; `SpecError`, `FieldError`, `InputError`, `MigrationError` | 65 |
    /// | `RecordRejected` invalid / conflict / not found | 65 / 75 / 66 |
    /// | `MissingLibraryError` (libpq, libmicrohttpd not installed) | 69 |
    /// | PostgreSQL's errors | see `classifyingPostgres` |
    ///
    /// Messages never hold a secure field's value: conflicts mask them, and
    /// SQLite's messages never hold bound values.
    ///
    /// - parameter databasePath: the database the command used, for storage messages.
    static func classifying(_ error: any Error, databasePath: String? = nil) -> CLIError {
        let database = databasePath ?? "the database"
        switch error {
        case let error as CLIError:
            return error
        case let error as FieldError:
            return .validation(error.description)
        case let error as InputError:
            return .validation(error.description)
        case let error as EditorDocumentError:
            return .validation(error.description)
        case let error as SpecError:
            return .validation(error.description)
        case let error as PrivateDirectoryError:
            return .storage(error.description)
        case let error as SidecarError:
            // FormStore's own file beside the database (its drafts and history), not the database.
            return classifying(error.underlying, databasePath: error.path)
        case let error as RecordRejected:
            return rejected(error)
        case let error as MissingLibraryError:
            return .unavailable(error.description)
        case let error as SessionError:
            return error.reason == .notFound ? .notFound(error.message) : .validation(error.message)
        case let error as FormStoreError:
            switch error.reason {
            case .unknownTable: return .notFound(error.message)
            // The command needs a key the form does not have: a usage error, like a field it lacks.
            case .noPrimaryKey: return .usage(error.message)
            default: return .validation(error.message)
            }
        case let error as MigrationError:
            if error.kind == .unreadable { return .notFound(error.description) }
            if error.kind == .unreadableFile { return .storage(error.description) }
            if let underlying = error.underlyingError, let problem = storageProblem(underlying, database) {
                return problem
            }
            return .validation(error.description)
        case let error as DatabaseError:
            // Before the storage problems: SQLite calls a schema whose CHECK, generated column or
            // index uses an unsafe function malformed, where nothing in the file is wrong.
            if let untrusted = untrustedSchemaUse(error) { return untrusted }
            if let problem = storageProblem(error, database) { return problem }
            if let json = malformedJSON(error) { return json }
            if let view = unwritableView(error) { return view }
            if let missing = missingFunction(error) { return missing }
            switch error.resultCode {
            case .SQLITE_CONSTRAINT:
                // Said by the column, as a person left it: SQLite's words name only the constraint.
                if let column = error.message?.between("NOT NULL constraint failed: ", and: "") {
                    return .validation("\(column) cannot be empty: its column is NOT NULL; nothing was saved")
                }
                return .validation(error.message ?? "a constraint failed")
            case .SQLITE_TOOBIG:
                return .validation("a value is too big for the database")
            default:
                // The message only: the SQL adds nothing a person can act on.
                return .failure("SQLite error \(error.resultCode.rawValue): \(error.message ?? "\(error.extendedResultCode)")")
            }
        case let error as CocoaError where error.isFileError:
            // A file or folder FormStore makes (a draft's, a sidecar's): the system's reason, and where.
            return .storage((error.filePath.map { "\($0): " } ?? "") + ErrorText.describe(error))
        default:
            if let problem = classifyingPostgres(error, database: database) { return problem }
            return .failure(String(describing: error))
        }
    }

    /// The file, rather than the SQL or the data, failed: exit 74, or 75 when
    /// another process holds a lock. `nil` for other errors.
    static func storageProblem(_ error: DatabaseError, _ path: String) -> CLIError? {
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return .conflict("\(path): the database is locked by another process (try again)")
        case .SQLITE_READONLY where error.extendedResultCode == .SQLITE_READONLY_DIRECTORY:
            // A write needs its journal beside it, and even a read of a WAL database its `-shm` file.
            return .storage("cannot use \(path): its folder is not writable, and SQLite must create a file beside it "
                + "(\(path)-journal to write, or \(path)-shm for a database in WAL mode, even to read it)")
        case .SQLITE_READONLY where error.isInterruptedWrite:
            return .storage("cannot read \(path): an interrupted write left it to be recovered (its -journal or -wal "
                + "file), which needs write access to the file and its folder")
        case .SQLITE_READONLY:
            return .storage("cannot write \(path): the database is read-only")
        case .SQLITE_FULL:
            return .storage("cannot write \(path): the database or the disk is full")
        case .SQLITE_IOERR:
            return .storage("cannot read or write \(path): disk I/O error")
        case .SQLITE_CORRUPT:
            return .storage("cannot read \(path): the database is corrupt")
        case .SQLITE_NOTADB:
            return .storage("cannot read \(path): the file is not an SQLite database")
        case .SQLITE_CANTOPEN:
            // The one reason FormStorage adds: a dangling link at the path, left unfollowed.
            let link = "it is a symbolic link to a file that does not exist (not followed)"
            if error.message?.hasSuffix(link) == true { return .storage("cannot open \(path): \(link)") }
            // A file that is there in a folder that cannot be written: SQLite could not make its journal
            // (or a WAL database's -shm, even to read it) beside it. Read-only media hold such files.
            if let file = Connection.file(behind: path), access(file, F_OK) == 0,
               access(URL(fileURLWithPath: file).deletingLastPathComponent().path, W_OK) != 0 {
                // Not `immutable=1` where a -wal holds what was committed last: it would read the file without it.
                var walStatus = stat()
                let committedInWAL = stat(file + "-wal", &walStatus) == 0 && walStatus.st_size > 0
                return .storage("cannot use \(path): its folder is not writable, and SQLite must create a file beside it "
                    + "(a journal to write, or a -shm file for a database in WAL mode, even to read it; "
                    + (committedInWAL ? "its \(file)-wal holds writes not yet in the file: copy both to a writable folder)"
                       : "on read-only media, open it as file:\(file)?immutable=1)"))
            }
            return .storage("cannot open \(path): unable to open the database file")
        case .SQLITE_PERM:
            return .storage("cannot open \(path): permission denied")
        default:
            return nil
        }
    }

    /// The database's schema (a trigger or view where it is used; a CHECK,
    /// generated column or index as the schema is read, which SQLite then
    /// reports as a malformed schema) called a function or virtual table
    /// that SQLite runs from a schema only when it is trusted (`PRAGMA
    /// trusted_schema`, off unless `--trust-schema`). SQLite says
    /// `unsafe use of load_extension()` or `unsafe use of virtual table "dbstat"`;
    /// the name is SQLite's own (a registered function), kept to printable characters.
    private static func untrustedSchemaUse(_ error: DatabaseError) -> CLIError? {
        let marker = "unsafe use of "
        guard error.resultCode == .SQLITE_ERROR || error.resultCode == .SQLITE_CORRUPT, let message = error.message,
              let start = message.firstRange(of: marker) else { return nil }
        let name = String(message[start.upperBound...].unicodeScalars
            .filter { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }.prefix(80))
        return .validation("the database's schema (its triggers, views, CHECKs, generated columns or indexes) uses "
                           + "\(name), which SQLite runs from a database's schema only if it is trusted; nothing was "
                           + "changed (if you trust this database, run again with --trust-schema)")
    }

    /// A generated column, index, CHECK or view of the database reads a
    /// column as JSON (`json_extract`, `->>`), and the value there, or the
    /// one being written, is not JSON: SQLite's `malformed JSON`, a refusal
    /// of the data, not a failure of the file.
    private static func malformedJSON(_ error: DatabaseError) -> CLIError? {
        guard error.isMalformedJSON else { return nil }
        return .validation(DatabaseError.malformedJSONText + "; nothing was changed")
    }

    /// The database's schema (a trigger, a view, a CHECK) calls a function
    /// the application that made it defines in its own process, which no
    /// other program has: Firefox's `places.sqlite` hashes each URL with
    /// `hash()` in a trigger. SQLite says `no such function: hash`; the
    /// change is refused by the schema (65), and was said as an unknown
    /// failure (exit 1).
    private static func missingFunction(_ error: DatabaseError) -> CLIError? {
        guard let missing = missingFunction(in: error) else { return nil }
        return .validation("the database's schema (a trigger, view or CHECK) calls \(missing); nothing was changed")
    }

    /// `hash(), a function the application that made the database defines, …`: the function
    /// SQLite's `no such function: NAME` names, said; nil for any other error.
    static func missingFunction(in error: any Error) -> String? {
        missingFunctionName(error).map {
            "\($0)(), a function the application that made the database defines, which SQLite here does not have"
        }
    }

    /// The function SQLite's `no such function: NAME` names, kept to printable characters.
    private static func missingFunctionName(_ error: any Error) -> String? {
        guard let error = error as? DatabaseError, error.resultCode == .SQLITE_ERROR, let message = error.message,
              let name = message.between("no such function: ", and: "") else { return nil }
        return String(name.unicodeScalars.filter { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }.prefix(80))
    }

    /// A write SQLite refuses to a table or view it lets nothing write
    /// there: a view without an `INSTEAD OF` trigger for it (`cannot modify
    /// v because it is a view`), or a table only SQLite or a virtual table
    /// may change (`table docs_data may not be modified`: a full-text index's
    /// storage, which defensive mode guards). The database refused it, as it
    /// refuses a constraint (65), and the message says what would take it.
    private static func unwritableView(_ error: DatabaseError) -> CLIError? {
        guard error.resultCode == .SQLITE_ERROR, let message = error.message else { return nil }
        if let view = message.between("cannot modify ", and: " because it is a view") {
            return .validation("'\(view)' is a view, and it has no INSTEAD OF trigger for this change "
                               + "(INSERT for new records, UPDATE for set, DELETE for delete); nothing was changed")
        }
        if let table = message.between("table ", and: " may not be modified") {
            return .validation("'\(table)' is changed only by SQLite or the virtual table it stores, "
                               + "never row by row; nothing was changed")
        }
        return nil
    }

    /// An error's line; a text column that is NOT NULL, left empty, says how
    /// to store empty text in it (an empty value is NULL on the command line).
    private static func hinted(_ error: FieldError, in form: Form) -> String {
        let line = error.description.singleLine
        guard error.code == "required", let key = error.field, let field = form.field(key),
              field.isNotNull, !field.isRequired, [.text, .multiline, .name].contains(field.kind) else { return line }
        return line + " (its column is NOT NULL: \(key):=\"\" stores empty text)"
    }

    /// A value in a conflict's line: a secure field's masked, NULL as `(empty)`.
    private static func shownInConflict(_ value: FieldValue, of field: Field?) -> String {
        if value == .null { return "(empty)" }
        if field?.isSecure == true { return ValueText.mask }
        return ValueText.text(value, kind: field?.kind, blobsBySize: true).singleLine.quotedForMessage
    }

    private static func rejected(_ rejection: RecordRejected) -> CLIError {
        let subject = rejection.key.map { "\(rejection.form.name) \($0)" } ?? "new \(rejection.form.name) record"
        switch rejection.reason {
        case .invalid(let errors):
            return .validation("\(subject): validation failed; nothing was saved",
                               details: errors.map { hinted($0, in: rejection.form) })
        case .conflict(let conflicts):
            let details = conflicts.map { conflict in
                let shown = { (value: FieldValue) in shownInConflict(value, of: rejection.form.field(conflict.field)) }
                return "\(conflict.field): was \(shown(conflict.base)), yours \(shown(conflict.mine)), theirs \(shown(conflict.theirs))"
            }
            return .conflict("\(subject) was changed by someone else since it was read; nothing was saved (try again)",
                             details: details)
        case .changedSinceHistory(let conflicts, let again?):
            let field = conflicts.first?.field ?? "a field"
            return .conflict("\(subject): \(field) was changed again by change \(again.later) since change \(again.change), "
                             + "and reverting \(again.change) would undo that too: revert change \(again.later) first, "
                             + "or revert --to a time")
        case .changedSinceHistory(let conflicts, nil):
            // Trying again would meet the same value: said so, with what would put it back.
            let details = conflicts.map { conflict in
                let shown = { (value: FieldValue) in shownInConflict(value, of: rejection.form.field(conflict.field)) }
                return "\(conflict.field): its history says it holds \(shown(conflict.base)), it holds \(shown(conflict.theirs)), "
                    + "the revert would put back \(shown(conflict.mine))"
            }
            let fields = conflicts.map(\.field).joined(separator: ", ")
            return .conflict("\(subject): \(fields) no longer holds what its history says (someone changed it "
                             + "outside FormStore, or history was not kept), and the revert would overwrite that; "
                             + "nothing was saved (set the field to what you want instead)", details: details)
        case .notFound:
            return .notFound("\(subject): no such record (it was deleted)")
        }
    }
}

extension String {
    /// Line breaks shown as `\n`, so that a message stays on one line.
    var singleLine: String {
        replacing("\r", with: "\\r").replacing("\n", with: "\\n")
    }

    /// At most 500 characters: a message quoting a 10 MB value stays readable.
    var clippedForMessage: String {
        let limit = 500
        guard count > limit else { return self }
        return "\(prefix(limit))… (\(count - limit) more characters)"
    }

    /// In double quotes, for a value inside a message.
    var quotedForMessage: String { "\"\(self)\"" }
}

private extension String {
    /// What lies between `prefix` and `suffix` when the text is exactly the three.
    func between(_ prefix: String, and suffix: String) -> Substring? {
        guard hasPrefix(prefix), hasSuffix(suffix), count > prefix.count + suffix.count else { return nil }
        return dropFirst(prefix.count).dropLast(suffix.count)
    }
}
