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

    /// Names, labels and choices come from the database or a spec: each is neutralised for the terminal.
    func text() -> String {
        let shown = { (text: String) in TerminalText.neutralised(text) }
        var out = "\(shown(form.title)) (\(shown(form.name))): edits table \(shown(form.tableName)), mode \(form.mode.rawValue)\n"
        for section in form.sections {
            if let title = section.title { out += "\n\(shown(title))\n" }
            for field in section.fields {
                var facts = [field.kind.rawValue]
                if field.isRequired { facts.append("required") }
                if field.isReadOnly { facts.append("read-only") }
                if field.isSecure { facts.append("secure") }
                if form.primaryKey.contains(field.key) { facts.append("primary key") }
                out += "  \(shown(field.key)): \(shown(field.label)) (\(facts.joined(separator: ", ")))\n"
                if !field.choices.isEmpty {
                    out += "    choices: \(field.choices.map { shown($0.label) }.joined(separator: ", "))\n"
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

    /// The JSON Schema of the records `export` writes: FormCore's, the one
    /// description of a record (nullable fields accept `null`).
    func jsonSchema() -> String {
        String(decoding: JSONSchemaExporter.schema(for: form), as: UTF8.self) + "\n"
    }
}
