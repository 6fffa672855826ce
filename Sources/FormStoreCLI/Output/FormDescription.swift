import FormCore

/// A form's definition for `formstore form`: readable text, JSON, or a JSON
/// Schema of the records it edits.
struct FormDescription {
    let form: Form

    func render(_ format: FormCommand.Format) -> String {
        switch format {
        case .text: return text()
        case .json: return json()
        case .jsonSchema: return jsonSchema()
        }
    }

    private var valueFields: [Field] { form.fields.filter(\.holdsValue) }

    func text() -> String {
        var out = "\(form.title) (\(form.name)): edits table \(form.tableName), mode \(form.mode.rawValue)\n"
        for section in form.sections {
            if let title = section.title { out += "\n\(title)\n" }
            for field in section.fields {
                var facts = [field.kind.rawValue]
                if field.isRequired { facts.append("required") }
                if field.isReadOnly { facts.append("read-only") }
                if field.isSecure { facts.append("secure") }
                if form.primaryKey.contains(field.key) { facts.append("primary key") }
                out += "  \(field.key): \(field.label) (\(facts.joined(separator: ", ")))\n"
                if !field.choices.isEmpty {
                    out += "    choices: \(field.choices.map(\.label).joined(separator: ", "))\n"
                }
            }
        }
        return out
    }

    /// The form as a JSON spec (`docs/spec.md`): an inferred form saved into a
    /// `--forms` folder becomes a spec to customise.
    func json() -> String {
        String(decoding: FormSpec.encode(form), as: UTF8.self) + "\n"
    }

    func jsonSchema() -> String {
        let properties = valueFields.filter(\.isStored).map { field -> String in
            var members = ["\"title\": \(JSONText.quoted(field.label))"]
            switch field.kind {
            case .integer: members.append("\"type\": \"integer\"")
            case .decimal: members.append("\"type\": \"number\"")
            case .bool: members.append("\"type\": \"boolean\"")
            case .multichoice: members.append("\"type\": \"array\"")
            default: members.append("\"type\": \"string\"")
            }
            switch field.kind {
            case .email: members.append("\"format\": \"email\"")
            case .date: members.append("\"format\": \"date\"")
            case .time: members.append("\"format\": \"time\"")
            case .datetime: members.append("\"format\": \"date-time\"")
            case .url: members.append("\"format\": \"uri\"")
            default: break
            }
            if field.isReadOnly { members.append("\"readOnly\": true") }
            if field.isSecure { members.append("\"writeOnly\": true") }
            let choices = field.choices.map { ValueText.json($0.value, kind: nil) }.joined(separator: ", ")
            if !field.choices.isEmpty {
                members.append(field.kind == .multichoice ? "\"items\": {\"enum\": [\(choices)]}" : "\"enum\": [\(choices)]")
            }
            return "    \(JSONText.quoted(field.key)): {" + members.joined(separator: ", ") + "}"
        }
        let required = valueFields.filter { $0.isRequired && $0.isStored }.map { JSONText.quoted($0.key) }
        return """
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "title": \(JSONText.quoted(form.title)),
          "type": "object",
          "properties": {
        \(properties.joined(separator: ",\n"))
          },
          "required": [\(required.joined(separator: ", "))]
        }

        """
    }
}
