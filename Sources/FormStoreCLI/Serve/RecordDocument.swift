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
            values[field.key] = PlainJSONValue(record.values[field.key] ?? .null)
        }
        guard withGroups else { return }
        for group in form.groups {
            let keys = group.keyFields.filter { !group.foreignKey.contains($0) && group.field($0) == nil }
            let fields = group.fields.filter { $0.holdsValue && !$0.isSecure }.map(\.key)
            groups[group.key] = (record.groups[group.key] ?? []).map { row in
                var object: [String: PlainJSONValue] = [:]
                for key in keys + fields { object[key] = PlainJSONValue(row[key] ?? .null) }
                return object
            }
        }
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
