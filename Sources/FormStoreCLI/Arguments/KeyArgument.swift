import FormBasics
import FormCore

/// A record key as typed: `3` for a single-column key, `col=value,col=value`
/// for a composite one. In a composite key, `\,` `\=` and `\\` stand for the
/// characters themselves; a single value with an `=` in it is written `a\=b`,
/// or as it is where the text before the `=` names no key column (`c=d`).
/// `col:=null` is the NULL an old table's key column may hold (SQLite lets
/// a primary key that is not the rowid hold NULL); `col:="x"` and `col:=3`
/// are the same as `col=x` and `col=3`.
enum KeyArgument: Sendable, Hashable {
    case single(String)
    case composite([KeyPart])

    struct KeyPart: Sendable, Hashable {
        var column: String
        /// The value as typed; `nil` for NULL (`column:=null`).
        var value: String?
    }

    /// - throws: `CLIError.usage` for an empty key, a part without `=`, or a column named twice.
    init(parsing text: String) throws {
        guard !text.isEmpty else { throw CLIError.usage("A record key cannot be empty; a key that is empty text is written with its column: COLUMN= (for example code=)") }
        // Split on unescaped `,` and find each part's first unescaped `=`.
        var parts: [(text: String, equals: String.Index?)] = []
        var current = ""
        var equals: String.Index?
        var sawEquals = false
        var escaping = false
        // Whether the last character was a `:` not escaped: before the `=`, it makes `:=`.
        var afterColon = false
        var jsonParts: Set<Int> = []
        for ch in text {
            let escaped = escaping
            defer { afterColon = !escaped && ch == ":" }
            if escaping {
                current.append(ch)
                escaping = false
            } else if ch == "\\" {
                escaping = true
            } else if ch == "," {
                parts.append((current, equals))
                current = ""
                equals = nil
            } else if ch == "=" && equals == nil {
                if afterColon {
                    current.removeLast()
                    jsonParts.insert(parts.count)
                }
                equals = current.endIndex
                sawEquals = true
                current.append(ch)
            } else {
                current.append(ch)
            }
        }
        if escaping { current.append("\\") }
        parts.append((current, equals))

        guard sawEquals else {
            // No unescaped `=`: one value, commas and all.
            self = .single(TypedName.unescape(text))
            return
        }
        var seen = Set<String>()
        var result: [KeyPart] = []
        for (index, part) in parts.enumerated() {
            guard let eq = part.equals, eq != part.text.startIndex else {
                throw CLIError.usage("Expected KEY as col=value,col=value, got '\(text)'")
            }
            let column = String(part.text[..<eq])
            guard seen.insert(column).inserted else {
                throw CLIError.usage("Key column '\(column)' is given more than once")
            }
            let value = String(part.text[part.text.index(after: eq)...])
            result.append(KeyPart(column: column, value: jsonParts.contains(index) ? try Self.jsonValue(value, column: column) : value))
        }
        self = .composite(result)
    }

    /// A key value given as JSON (`column:=JSON`): `null` is NULL (the key
    /// of a row SQLite let keep a NULL key), a string or a number its text.
    private static func jsonValue(_ json: String, column: String) throws -> String? {
        let node: JSONNode
        do {
            node = try JSONReader.parse(Array(json.utf8))
        } catch {
            throw CLIError.usage("'\(column):=' in a key takes null, a number or a JSON string; got '\(json)'")
        }
        switch node {
        case .null: return nil
        case .string(let text): return text
        case .number: return json.trimmingSpacesAndNewlines()
        default: throw CLIError.usage("'\(column):=' in a key takes null, a number or a JSON string; got '\(json)'")
        }
    }

    /// The key as typed values for a table whose primary key is `primaryKey`;
    /// `kinds` (by column) decide which values are integers.
    ///
    /// - throws: `CLIError.usage` when the columns do not match the primary key.
    func recordKey(primaryKey: [String], kinds: [String: FieldKind] = [:]) throws -> RecordKey {
        try recordKey(primaryKey: primaryKey) { column, text in
            if kinds[column] == .integer, let n = Int64(text) { return .int(n) }
            return .text(text)
        }
    }

    /// The key for a table whose primary key is `primaryKey`, each typed value
    /// converted by `typed(column, text)`.
    ///
    /// - throws: `CLIError.usage` when the columns do not match the primary key.
    func recordKey(primaryKey: [String], typed: (_ column: String, _ text: String) -> FieldValue) throws -> RecordKey {
        switch self {
        case .single(let value):
            guard primaryKey.count == 1 else {
                throw CLIError.usage("The key has \(primaryKey.count) columns; write it as "
                    + primaryKey.map { "\($0)=…" }.joined(separator: ","))
            }
            return RecordKey(primaryKey[0], typed(primaryKey[0], value))
        case .composite(let parts):
            // A one-column key whose value holds `=` (`c=d`), typed without `\=`: no part
            // names the column, so the whole text is the value, as it reads.
            if primaryKey.count == 1, !parts.contains(where: { $0.column.equalsIgnoringCase(primaryKey[0]) }),
               parts.allSatisfy({ $0.value != nil }) {
                return RecordKey(primaryKey[0], typed(primaryKey[0], parts.map { "\($0.column)=\($0.value!)" }.joined(separator: ",")))
            }
            let given = Dictionary(uniqueKeysWithValues: parts.map { ($0.column, $0.value) })
            guard Set(given.keys) == Set(primaryKey) else {
                throw CLIError.usage("The key columns are \(primaryKey.joined(separator: ", ")); got "
                    + parts.map(\.column).joined(separator: ", "))
            }
            return RecordKey(columns: primaryKey, values: primaryKey.map { column in
                given[column]!.map { typed(column, $0) } ?? .null
            })
        }
    }
}

extension KeyArgument {
    /// `key` as it is typed: its `text` reads back as the same record, where
    /// `RecordKey.description` leaves a `,`, `=` or `\` in a value as it is.
    init(_ key: RecordKey) {
        let texts = zip(key.values, key.valueTexts).map { value, text in value == .null ? nil : text }
        // A lone value that would not read back alone is named by its column: empty (`k=`,
        // as `''` is no key), starting with `-` (`k=-x`, which would read as an option), or NULL (`k:=null`).
        if key.columns.count == 1, let text = texts[0], !text.isEmpty, !text.hasPrefix("-") {
            self = .single(text)
        } else {
            self = .composite(zip(key.columns, texts).map { KeyPart(column: $0, value: $1) })
        }
    }

    /// The key as it would be typed again (messages, a page's address, a resume line).
    /// `KeyArgument(key).text` is `key.typedText`.
    var text: String {
        func escaped(_ s: String) -> String {
            s.replacing("\\", with: "\\\\").replacing(",", with: "\\,")
                .replacing("=", with: "\\=")
        }
        switch self {
        case .single(let value): return value.contains("=") || value.contains("\\") ? escaped(value) : value
        case .composite(let parts):
            return parts.map { part in
                // A column ending in `:` has it escaped, so that `:=` is not read as JSON.
                let column = part.column.hasSuffix(":") ? escaped(String(part.column.dropLast())) + "\\:" : escaped(part.column)
                return part.value.map { "\(column)=\(escaped($0))" } ?? "\(column):=null"
            }.joined(separator: ",")
        }
    }
}

extension RecordKey {
    /// The key as it is typed (`KeyArgument.text`): what a page's address, a
    /// resume line or a listing shows, so that it reads back as this record.
    var typedText: String { KeyArgument(self).text }
}
