import FormCore

/// Child rows read from input (`InputRecord.rows`), written back as the JSON
/// object `FormSession.apply(json:)` reads: one member per group, an array of
/// row objects. The library's JSON door then plans the group as a whole.
enum ChildRowsJSON {
    static func body(_ rows: [String: [[String: FieldValue]]]) -> [UInt8] {
        var out: [UInt8] = Array("{".utf8)
        for (n, (group, objects)) in rows.sorted(by: { $0.key < $1.key }).enumerated() {
            if n > 0 { out += ", ".utf8 }
            JSONText.appendQuoted(group, to: &out)
            out += ": [".utf8
            for (i, object) in objects.enumerated() {
                if i > 0 { out += ", ".utf8 }
                out += "{".utf8
                for (j, (column, value)) in object.sorted(by: { $0.key < $1.key }).enumerated() {
                    if j > 0 { out += ", ".utf8 }
                    JSONText.appendQuoted(column, to: &out)
                    out += ": ".utf8
                    ValueText.appendJSON(value, kind: nil, to: &out)
                }
                out += "}".utf8
            }
            out += "]".utf8
        }
        out += "}".utf8
        return out
    }
}

extension InputRecord {
    /// The record with an empty array under a group's name read as the
    /// group's rows (none): the reader cannot tell `[]` from an empty list of values.
    func withEmptyGroups(of form: Form) -> InputRecord {
        var record = self
        for (name, value) in values where value == .list([]) && form.group(name) != nil {
            record.values[name] = nil
            record.rows[name] = []
        }
        return record
    }
}
