import FormBasics
import FormCore
import FormStorage
import FoundationEssentials

/// Fields reaching into a JSON document column by a dotted path, as on
/// SQLite (`"prefs.ui.theme"` → column `prefs`, path `ui.theme`): read out of
/// the column's document, and written back into it with the document's other
/// keys kept. The document is read and written whole, inside the write's
/// transaction, the row locked (`FOR UPDATE`) between the two.
extension PostgresTableMapping {
    /// A `json`, `jsonb` or text column can hold a document a path reaches into.
    static func holdsDocuments(_ column: PostgresColumn) -> Bool {
        guard !column.isArray else { return false }
        let family = PostgresTypeFamily(typeName: column.typeName)
        return family == .json || family == .text
    }

    /// Each path field's value, read from its column's document in `values`.
    func readPaths(into values: inout [String: FieldValue]) {
        var documents: [String: DictionaryModel] = [:]
        for (field, path) in jsonPaths {
            if documents[path.column] == nil { documents[path.column] = Self.document(values[path.column]) }
            let value = documents[path.column]!.value(forKey: path.path)
            // A date sits in the document as text: read it as the field's kind.
            if case .text(let text) = value { values[field] = coding(field).decode(text) } else { values[field] = value }
        }
    }

    /// `values` by field with each JSON path written into its column's
    /// document (the document in `current`, so keys no field names are kept).
    func columnValues(_ values: [String: FieldValue], over current: [String: FieldValue]) -> [String: FieldValue] {
        guard !jsonPaths.isEmpty else { return values }
        var result = values
        var documents: [String: DictionaryModel] = [:]
        var edits: [String: [(path: [String], literal: String)]] = [:]
        for (field, path) in jsonPaths.sorted(by: { $0.key < $1.key }) {
            guard let value = values[field] else { continue }
            result[field] = nil
            if documents[path.column] == nil { documents[path.column] = Self.document(current[path.column]) }
            // A date goes into the document as the text its kind writes.
            let stored: FieldValue
            if case .date = value { stored = coding(field).encode(value).map(FieldValue.text) ?? .null } else { stored = value }
            try? documents[path.column]!.setValue(stored, forKey: path.path)
            edits[path.column, default: []].append((path.components, stored.jsonLiteral))
        }
        for (column, document) in documents {
            // The member changed in the stored text, the rest as it was (a jsonb column's own
            // spacing aside, which the server writes); anew only where there is no object to change.
            let stored = if case .text(let text)? = current[column] { text } else { String?.none }
            result[column] = .text(JSONMemberEdit.setting(edits[column] ?? [], in: stored) ?? Self.json(.object(document.root)))
        }
        return result
    }

    /// A document column's document; an empty one for NULL or text that is no JSON object.
    static func document(_ value: FieldValue?) -> DictionaryModel {
        guard case .text(let text)? = value, let document = try? DictionaryModel(json: Data(text.utf8)) else {
            return DictionaryModel()
        }
        return document
    }

    /// Compact JSON for a document, object keys sorted.
    static func json(_ node: DictionaryModel.Node) -> String {
        switch node {
        case .object(let members):
            return "{" + members.keys.sorted().map { JSONText.quoted($0) + ":" + json(members[$0]!) }.joined(separator: ",") + "}"
        case .value(let value):
            return literal(value)
        }
    }

    private static func literal(_ value: FieldValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d):
            guard d.isFinite else { return "null" }
            return Int64(exactly: d).map { String($0) } ?? String(d)
        case .text(let s): return JSONText.quoted(s)
        case .date(let date): return JSONText.quoted(ISO8601.dateTime(date))
        case .list(let list): return "[" + list.map(literal).joined(separator: ",") + "]"
        case .data(let data): return JSONText.quoted(data.base64EncodedString())
        }
    }

    /// The SQL reading a path field's value as text (for a filter or a sort):
    /// the column read as `jsonb`, the path's keys as literals.
    func pathExpression(_ field: String) -> String? {
        guard let path = jsonPaths[field] else { return nil }
        let keys = path.path.split(separator: ".").map { "'" + $0.replacing("'", with: "''") + "'" }
        return "(CAST(\(quoteIdentifier(path.column)) AS jsonb) #>> ARRAY[\(keys.joined(separator: ", "))]::text[])"
    }
}
