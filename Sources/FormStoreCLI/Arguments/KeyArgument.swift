import FormBasics
import FormCore

/// A record key as typed: `3` for a single-column key, `col=value,col=value`
/// for a composite one. In a composite key, `\,` `\=` and `\\` stand for the
/// characters themselves; a single value with an `=` in it is written `a\=b`,
/// or as it is where the text before the `=` names no key column (`c=d`).
enum KeyArgument: Sendable, Hashable {
    case single(String)
    case composite([KeyPart])

    struct KeyPart: Sendable, Hashable {
        var column: String
        var value: String
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
        for ch in text {
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
        for part in parts {
            guard let eq = part.equals, eq != part.text.startIndex else {
                throw CLIError.usage("Expected KEY as col=value,col=value, got '\(text)'")
            }
            let column = String(part.text[..<eq])
            guard seen.insert(column).inserted else {
                throw CLIError.usage("Key column '\(column)' is given more than once")
            }
            result.append(KeyPart(column: column, value: String(part.text[part.text.index(after: eq)...])))
        }
        self = .composite(result)
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
            if primaryKey.count == 1, !parts.contains(where: { $0.column.equalsIgnoringCase(primaryKey[0]) }) {
                return RecordKey(primaryKey[0], typed(primaryKey[0], parts.map { "\($0.column)=\($0.value)" }.joined(separator: ",")))
            }
            let given = Dictionary(uniqueKeysWithValues: parts.map { ($0.column, $0.value) })
            guard Set(given.keys) == Set(primaryKey) else {
                throw CLIError.usage("The key columns are \(primaryKey.joined(separator: ", ")); got "
                    + parts.map(\.column).joined(separator: ", "))
            }
            return RecordKey(columns: primaryKey, values: primaryKey.map { typed($0, given[$0]!) })
        }
    }
}

extension KeyArgument {
    /// `key` as it is typed: its `text` reads back as the same record, where
    /// `RecordKey.description` leaves a `,`, `=` or `\` in a value as it is.
    init(_ key: RecordKey) {
        let texts = key.valueTexts
        // A lone value that would not read back alone is named by its column: empty (`k=`,
        // as `''` is no key) or starting with `-` (`k=-x`, which would read as an option).
        if key.columns.count == 1, !texts[0].isEmpty, !texts[0].hasPrefix("-") {
            self = .single(texts[0])
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
        case .composite(let parts): return parts.map { "\(escaped($0.column))=\(escaped($0.value))" }.joined(separator: ",")
        }
    }
}

extension RecordKey {
    /// The key as it is typed (`KeyArgument.text`): what a page's address, a
    /// resume line or a listing shows, so that it reads back as this record.
    var typedText: String { KeyArgument(self).text }
}
