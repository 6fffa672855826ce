import FormCore

struct SetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "set", access: .write,
        abstract: "Change fields of a record: validate what changed, save only that, print the changes.",
        discussion: Common.valueSyntax + "\n\n" + Common.refusedAsJSON,
        arguments: [Common.form, Common.key,
                    ArgumentDefinition("field=value", help: "A field's new value: FIELD=TEXT or FIELD:=JSON (FIELD:=null for no value).", arity: .variadic(minimum: 0), check: .assignment)],
        options: [.flag("json", help: "Read the changes as one JSON object from stdin (with --children, child groups as arrays of row objects)."),
                  Common.children,
                  Common.format(ShowCommand.Format.allCases, default: .text)])

    let form: String
    let key: KeyArgument
    let inputs: [String: FieldInput]
    /// Fields given with `:=`, never read from a file.
    let literal: Set<String>
    let format: ShowCommand.Format
    let readsJSON: Bool
    let children: Bool

    init(parsing arguments: ParsedArguments) throws {
        form = try arguments.argument("form")
        key = try arguments.key("key")
        let assignments = try arguments.assignments("field=value")
        inputs = try assignments.byField()
        literal = Set(assignments.filter(\.isJSON).map(\.field))
        format = try arguments.choice("format", default: .text)
        readsJSON = arguments.flag("json")
        children = arguments.flag("children")
        if readsJSON && !inputs.isEmpty {
            throw CLIError.usage("Give values either as FIELD=VALUE or with --json, not both")
        }
        if !readsJSON && inputs.isEmpty {
            throw CLIError.usage("Missing expected argument '<field=value> ...'")
        }
        if children && !readsJSON {
            throw CLIError.usage("--children takes the child rows from a JSON object: give --json")
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let workspace = try context.workspace()
        let form = try workspace.form(named: form, children: children)
        let update: RecordUpdate
        if readsJSON {
            // One JSON object, as the library's JSON door reads it: a group's array states the whole group.
            let body = try FieldInput.readAll(context.terminal.input)
            update = try format.reportingRejection(context) { try workspace.saveJSON(body, of: form, key: key) }.update
        } else {
            let inputs = try FieldInput.readingFiles(self.inputs, literal: literal, of: form, stdin: context.terminal.input)
            update = try format.reportingRejection(context) {
                try workspace.updateRecord(of: form, key: key, inputs: inputs)
            }
        }
        // Stored values nobody touched that break a rule did not stop the save; say so.
        for warning in update.warnings {
            context.say("formstore: warning: \(form.name) \(key.text): \(warning.description.singleLine) (stored so; left unchanged)")
        }
        for kept in update.keptOtherwise {
            let field = form.field(kept.field)
            let shown = { (value: FieldValue) in Self.shownChange(value, of: field, key: kept.field, json: false).textValue ?? "" }
            context.say("formstore: warning: \(form.name) \(key.text): \(kept.field): the database kept \(shown(kept.new)), "
                        + "not \(shown(kept.old)) (a trigger set it back)")
        }
        Self.write(update.changes, of: form, format: format, context)
        return .success
    }

    /// Prints a save's changes as `set` does: a table (or JSON) of field, old and new,
    /// "No changes." when there were none.
    static func write(_ changes: [FieldChange], of form: Form, format: ShowCommand.Format, _ context: CommandContext) {
        let columns = [OutputColumn(key: "field"), OutputColumn(key: "old"), OutputColumn(key: "new")]
        let output: OutputFormat = format == .json ? .json : .table
        if changes.isEmpty && format == .text {
            context.say("No changes.")
            return
        }
        var writer = output.writer(columns: columns, to: context.terminal.output, options: context.outputOptions())
        writer.writeAll(changes.map { change -> [FieldValue] in
            [.text(change.field), shownChange(change.old, of: form.field(change.field), key: change.field, json: format == .json),
             shownChange(change.new, of: form.field(change.field), key: change.field, json: format == .json)]
        })
    }

    /// A value of a change as printed: as list and show show it; NULL and
    /// empty text told apart, since a change may be between them; a secure field masked.
    static func shownChange(_ v: FieldValue, of field: Field?, key: String, json: Bool) -> FieldValue {
        let secure = field?.isSecure == true
        if json { return secure && !v.isEmpty ? .text(ValueText.mask) : v }
        if v == .null { return .text("(null)") }
        if v == .text("") { return .text("(empty)") }
        let column = field.map(OutputColumn.init) ?? OutputColumn(key: key)
        return .text(secure && !v.isEmpty ? ValueText.mask : column.displayText(v))
    }
}
