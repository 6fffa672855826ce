import FormCore
import FormStorage

/// A form's definition for `formstore form`: readable text, JSON, a JSON
/// Schema of the records it edits, or the CREATE TABLE it needs.
struct FormDescription {
    let form: Form
    /// Fields whose column has no declared type (`RecordStore.untypedColumns(of:)`).
    var untyped: Set<String> = []
    /// The table's DEFAULTs and CHECKs, as the database holds them (`Workspace.schemaConstraints(of:)`).
    var constraints = SchemaConstraints()

    func render(_ format: FormCommand.Format) throws -> String {
        switch format {
        case .text: return text()
        case .json: return try json()
        case .jsonSchema: return jsonSchema()
        case .sql: return try form.createTableSQL()
        }
    }

    private var valueFields: [Field] { form.fields.filter(\.holdsValue) }

    /// Names, labels and choices come from the database or a spec: each is neutralised for the terminal.
    func text() -> String {
        let shown = { (text: String) in TerminalText.neutralised(text) }
        var out = "\(shown(form.title)) (\(shown(form.name))): edits table \(shown(form.tableName)), mode \(form.mode.rawValue)\n"
        for section in form.sections {
            if let title = section.title { out += "\n\(shown(title))\n" }
            if let group = section.group {
                let order = group.orderColumn.map { ", ordered by \(shown($0))" } ?? ""
                out += "  rows of \(shown(group.tableName)) (\(shown(group.key))), referring through "
                    + "\(group.foreignKey.map(shown).joined(separator: ", "))\(order):\n"
            }
            for field in section.group?.fields ?? section.fields {
                // A BLOB column's field is text typed in hex: said as what it holds.
                var facts = [FieldFacts.kind(field) + (field.transforms.contains(.hex) ? ", typed in hex as x'CAFE'" : "")]
                if field.isRequired { facts.append("required") } else if field.isNotNull { facts.append("not null") }
                if field.isReadOnly { facts.append("read-only") }
                if field.isSecure { facts.append("secure") }
                if (section.group?.keyFields ?? form.primaryKey).contains(field.key) { facts.append("primary key") }
                facts += FieldFacts.rules(field)
                // The column's DEFAULT as SQLite holds it (`CURRENT_TIMESTAMP` too), else a spec's.
                if section.group == nil, let sql = constraints.defaults[field.key] {
                    facts.append("default \(sql)")
                } else if field.defaultValue != .null {
                    facts.append("default \(FieldDisplay.text(field.defaultValue, of: field))")
                }
                out += "  \(shown(field.key)): \(shown(field.label)) (\(facts.joined(separator: ", ")))\n"
                if !field.choices.isEmpty {
                    // An empty choice (a PostgreSQL enum's '' label) as `show` prints empty text.
                    let choices = field.choices.map {
                        ($0.label.isEmpty ? "\"\"" : shown($0.label)) + ($0.isDisabled ? " (disabled)" : "")
                    }
                    out += "    choices: \(choices.joined(separator: ", "))\n"
                }
                if let condition = field.hiddenWhen { out += "    hidden when \(shown(form.explain(condition)))\n" }
                if let condition = field.disabledWhen { out += "    disabled when \(shown(form.explain(condition)))\n" }
            }
        }
        if !form.rules.isEmpty {
            out += "\nRules\n"
            for rule in form.rules { out += "  \(shown(FieldFacts.rule(rule, in: form)))\n" }
        }
        if !constraints.checks.isEmpty {
            out += "\nChecks of table \(shown(form.tableName)) (the database refuses a row breaking one)\n"
            for check in constraints.checks { out += "  \(shown(check))\n" }
        }
        return out
    }

    /// The form as a JSON spec (`docs/spec.md`): an inferred form saved into a
    /// `--forms` folder becomes a spec to customise.
    func json() throws -> String {
        String(decoding: try FormSpec.encode(form), as: UTF8.self) + "\n"
    }

    /// The JSON Schema of the records `export` writes: FormCore's, the one
    /// description of a record (nullable fields accept `null`).
    func jsonSchema() -> String {
        String(decoding: JSONSchemaExporter.schema(for: form, untyped: untyped), as: UTF8.self) + "\n"
    }
}
