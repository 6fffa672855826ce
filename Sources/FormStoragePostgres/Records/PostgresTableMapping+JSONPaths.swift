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
            values[field] = fieldValue(field, member: documents[path.column]!.value(forKey: path.path))
        }
    }

    /// A path field's value from its member in the document.
    private func fieldValue(_ field: String, member: FieldValue) -> FieldValue {
        // A date sits in the document as text: read it as the field's kind.
        if case .text(let text) = member { return coding(field).decode(text) }
        return member
    }

    /// Each path field's member as history keeps it, by field: its JSON text
    /// (`6`, `"blue"`), nil where the document holds none. `texts` holds the
    /// document columns' text, by column.
    func pathMemberTexts(_ texts: [String: String?]) -> [String: String?] {
        var documents: [String: DictionaryModel] = [:]
        var members: [String: String?] = [:]
        for (field, path) in jsonPaths {
            if documents[path.column] == nil { documents[path.column] = Self.document((texts[path.column] ?? nil).map(FieldValue.text)) }
            let member = documents[path.column]!.value(forKey: path.path)
            members[field] = member == .null ? nil : member.jsonLiteral
        }
        return members
    }

    /// A path field's value from the JSON text history kept of its member
    /// (`pathMemberTexts`), read as the record reads it from the document.
    func pathValue(_ field: String, historyText text: String?) -> FieldValue {
        guard let text else { return .null }
        return fieldValue(field, member: Self.document(.text("{\"m\": \(text)}")).value(forKey: "m"))
    }

    /// `values` by field with each JSON path written into its column's
    /// document (the document in `current`, so keys no field names are kept).
    ///
    /// - throws: `FormStoreError.notADocument` where the column holds
    ///   something other than a JSON object to reach into: written over, it would be lost.
    func columnValues(_ values: [String: FieldValue], over current: [String: FieldValue]) throws -> [String: FieldValue] {
        guard !jsonPaths.isEmpty else { return values }
        var result = values
        var edits: [String: [JSONPath.Edit]] = [:]
        for (field, path) in jsonPaths.sorted(by: { $0.key < $1.key }) {
            guard let value = values[field] else { continue }
            result[field] = nil
            // A date goes into the document as the text its kind writes.
            let stored: FieldValue
            if case .date = value { stored = coding(field).encode(value).map(FieldValue.text) ?? .null } else { stored = value }
            edits[path.column, default: []].append(JSONPath.Edit(field: field, path: path.components, literal: stored.jsonLiteral))
        }
        // The member changed in the stored text, the rest as it was (a jsonb column's own spacing aside).
        for (column, changes) in edits { result[column] = .text(try JSONPath.document(current[column], column: column, setting: changes)) }
        return result
    }

    /// A document column's document; an empty one for NULL or text that is no JSON object.
    static func document(_ value: FieldValue?) -> DictionaryModel {
        guard case .text(let text)? = value, let document = try? DictionaryModel(json: Data(text.utf8)) else {
            return DictionaryModel()
        }
        return document
    }

    /// The SQL reading a path field's value as text (for a filter or a sort):
    /// the column read as `jsonb`, the path's keys as literals.
    func pathExpression(_ field: String) -> String? {
        guard let path = jsonPaths[field] else { return nil }
        let keys = path.path.split(separator: ".").map { "'" + $0.replacing("'", with: "''") + "'" }
        return "(CAST(\(quoteIdentifier(path.column)) AS jsonb) #>> ARRAY[\(keys.joined(separator: ", "))]::text[])"
    }
}
