/// The mistakes a repeating group's definition can hold.
extension Form {
    /// Problems of the groups: a key path without a coding key, a group key
    /// that is also a field's, duplicate row keys, rules naming unknown fields.
    var groupProblems: [FormDefinitionError] {
        var problems: [FormDefinitionError] = []
        let parentKeys = Set(fields.map(\.key))
        var groupKeys: Set<String> = []
        for (s, section) in sections.enumerated() {
            guard let group = section.group else { continue }
            let at = "$.sections[\(s)].group"
            func problem(_ path: String, _ message: String) {
                var error = FormDefinitionError(path: "\(at).\(path)", message: message)
                error.field = group.key
                problems.append(error)
            }
            if let unresolved = group.unresolvedKeyPath {
                problem("key", "no coding key found for \(unresolved)")
            } else if group.key.isEmpty {
                problem("key", "a group needs a key")
            } else if parentKeys.contains(group.key) || !groupKeys.insert(group.key).inserted {
                problem("key", "duplicate key \(group.key.quoted): a group's key must differ from every field's and group's")
            }
            var rowKeys: Set<String> = []
            for (f, field) in group.fields.enumerated() where !rowKeys.insert(field.key).inserted || field.key.isEmpty {
                problem("fields[\(f)].key", field.key.isEmpty ? "a field needs a key" : "duplicate field key \(field.key.quoted)")
            }
            for (f, field) in group.fields.enumerated() {
                if let unresolved = field.unresolvedKeyPath { problem("fields[\(f)].key", "no coding key found for \(unresolved)") }
                problems += field.ruleProblems(at: "\(at).fields[\(f)]", keys: rowKeys)
            }
            for name in group.uniqueFields where !rowKeys.contains(name) {
                problem("unique", "unknown row field \(name.quoted)")
            }
            for sum in group.sums {
                if !rowKeys.contains(sum.column) { problem("sum", "unknown row field \(sum.column.quoted)") }
                if !parentKeys.contains(sum.field) { problem("sum", "unknown field \(sum.field.quoted) for the total") }
            }
            if let min = group.minRows, let max = group.maxRows, min > max {
                problem("minRows", "minRows \(min) is greater than maxRows \(max)")
            }
        }
        return problems
    }
}
