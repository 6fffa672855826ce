import FormCore

/// A record as the JSON API sends it: its stored fields by key (secure ones
/// left out) and, for a form with groups, each group as an array of row
/// objects, the shape of `formstore show --children --format json` (a row's
/// key columns, then its fields; the foreign key to the parent left out).
struct RecordDocument: Encodable {
    var values: [String: PlainJSONValue]
    var groups: [String: [[String: PlainJSONValue]]] = [:]

    init(_ record: StoredRecord, form: Form, withGroups: Bool) {
        values = [:]
        for column in record.key.columns { values[column] = PlainJSONValue(record.key[column] ?? .null) }
        for field in form.fields where field.holdsValue && field.isStored && !field.isSecure {
            values[field.key] = Self.json(record.values[field.key] ?? .null, kind: field.kind)
        }
        guard withGroups else { return }
        for group in form.groups {
            let keys = group.keyFields.filter { !group.foreignKey.contains($0) && group.field($0) == nil }
            let fields = group.fields.filter { $0.holdsValue && !$0.isSecure }.map(\.key)
            groups[group.key] = (record.groups[group.key] ?? []).map { row in
                var object: [String: PlainJSONValue] = [:]
                for key in keys + fields { object[key] = Self.json(row[key] ?? .null, kind: group.field(key)?.kind) }
                return object
            }
        }
    }

    /// A date as `show --format json` writes it, by its field's kind (a
    /// DATE column's `2024-01-05`), so a record read can be sent back as it is.
    private static func json(_ value: FieldValue, kind: FieldKind?) -> PlainJSONValue {
        guard case .date(let date) = value else { return PlainJSONValue(value) }
        return PlainJSONValue(.text(ISO8601.text(date, kind: kind)))
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (key, value) in values { try container.encode(value, forKey: Key(stringValue: key)) }
        for (key, rows) in groups { try container.encode(rows, forKey: Key(stringValue: key)) }
    }
}
