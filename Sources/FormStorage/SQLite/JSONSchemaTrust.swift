import CSQLite

/// SQLite 3.38 to 3.40 left its own JSON functions unmarked as innocuous
/// (3.41.0 fixed it: "Fix JSON functions so that they work correctly under
/// PRAGMA trusted_schema"). With `trusted_schema` off, as FormStore opens a
/// database it was not told to trust, a schema that calls one could not even
/// be read: a Django JSONField's `CHECK (JSON_VALID(data))`, a generated
/// column of `json_extract`, an index on `data->>'$.k'` made SQLite call the
/// whole schema malformed, and a view calling one failed where it was used.
///
/// The JSON functions read nothing but their arguments, as SQLite's later
/// versions say. So on those SQLite versions a connection whose statement
/// SQLite refuses for a JSON function trusts its schema from then on, as
/// `--trust-schema` would, and the statement is prepared again. (Trusted for
/// one prepare only, it failed again where SQLite prepares a statement anew
/// inside a step.) The schema may then also call SQLite's other functions
/// and virtual tables it does not mark innocuous: its functions only read
/// their arguments or the full-text and R-tree indexes, its virtual tables
/// only describe the connection (`pragma_database_list`); the ones with
/// effects (`load_extension`, `fts3_tokenizer`) are direct-only, refused
/// from any schema, and FormStore's own functions (`SQLFunction`) are
/// innocuous. README and docs/fidelity.md say so.
enum JSONSchemaTrust {
    /// Whether this SQLite is one whose JSON functions a schema may not call
    /// untrusted.
    static let isNeeded = sqlite3_libversion_number() < 3_041_000

    /// `sqlite3_prepare_v2` of the SQL at `text`, prepared again when
    /// this SQLite refused a JSON function of the schema (see above).
    static func prepare(_ text: UnsafePointer<CChar>, on handle: OpaquePointer, _ statement: inout OpaquePointer?,
                        _ tail: inout UnsafePointer<CChar>?) -> Int32 {
        let code = sqlite3_prepare_v2(handle, text, -1, &statement, &tail)
        guard admitJSON(after: code, on: handle) else { return code }
        sqlite3_finalize(statement)
        return sqlite3_prepare_v2(handle, text, -1, &statement, &tail)
    }

    /// After a failed prepare on `handle`: when SQLite refused a JSON
    /// function as unsafe, the connection now trusts its schema, and the
    /// statement may be prepared again. False, changing nothing, otherwise.
    static func admitJSON(after code: Int32, on handle: OpaquePointer) -> Bool {
        guard isNeeded, code != SQLITE_OK, let message = sqlite3_errmsg(handle).map({ String(cString: $0) }),
              let name = unsafeName(in: message), isJSONFunction(name) else { return false }
        return formstore_sqlite3_db_config_trusted_schema(handle, 1) == SQLITE_OK
    }

    /// The function SQLite names in `unsafe use of json_valid()`: its name
    /// when the message names a function (`name()`), nil for anything else
    /// (`unsafe use of virtual table "json_x"` names a table of the schema's own naming).
    static func unsafeName(in message: String) -> Substring? {
        guard let start = message.firstRange(of: "unsafe use of ") else { return nil }
        let rest = message[start.upperBound...]
        guard let open = rest.firstIndex(of: "("), rest[open...].hasPrefix("()") else { return nil }
        return rest[..<open]
    }

    /// SQLite's own JSON functions and operators that 3.38 to 3.40 left
    /// unmarked, by the exact name SQLite gives them (lower case, as it
    /// names a built-in function in its message whatever the SQL wrote).
    static let jsonFunctions: Set<Substring> = [
        "json", "json_array", "json_array_length", "json_extract", "json_insert", "json_object", "json_patch",
        "json_quote", "json_remove", "json_replace", "json_set", "json_type", "json_valid", "json_group_array",
        "json_group_object", "->", "->>",
    ]

    static func isJSONFunction(_ name: Substring) -> Bool { jsonFunctions.contains(Substring(name.lowercased())) }
}
