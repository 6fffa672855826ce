import FormCore

struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "new", access: .write,
        abstract: "Create a record from FIELD=VALUE arguments, or from a JSON object on stdin.",
        discussion: "Values are typed as a person would type them; the form parses and validates them.\n"
            + Common.valueSyntax + "\n\n" + Common.refusedAsJSON,
        arguments: [Common.form,
                    ArgumentDefinition("field=value", help: "A field's value: FIELD=TEXT or FIELD:=JSON (FIELD:=null for no value).", arity: .variadic(minimum: 0), check: .assignment)],
        options: [.flag("json", help: "Read the values as one JSON object from stdin."),
                  .flag("children", help: "With --json: the object may hold each child group as an array of row objects, inserted with the record."),
                  Common.format(ShowCommand.Format.allCases, default: .text)])

    let form: String
    let inputs: [String: FieldInput]
    /// Fields given with `:=`, never read from a file.
    let literal: Set<String>
    let readsJSON: Bool
    let children: Bool
    let format: ShowCommand.Format

    init(parsing arguments: ParsedArguments) throws {
        form = try arguments.argument("form")
        let assignments = try arguments.assignments("field=value")
        inputs = try assignments.byField()
        literal = Set(assignments.filter(\.isJSON).map(\.field))
        readsJSON = arguments.flag("json")
        children = arguments.flag("children")
        if children && !readsJSON {
            throw CLIError.usage("--children takes the child rows from a JSON object: give --json")
        }
        format = try arguments.choice("format", default: .text)
        if readsJSON && !inputs.isEmpty {
            throw CLIError.usage("Give values either as FIELD=VALUE or with --json, not both")
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        if children {
            let workspace = try context.workspace()
            let form = try workspace.form(named: form, children: true)
            let body = try FieldInput.readAll(context.terminal.input)
            let saved = try format.reportingRejection(context) { try workspace.saveJSON(body, of: form, key: nil) }
            context.printRecordWithChildren(saved.record, of: form, json: format == .json, options: context.outputOptions())
            context.say(Self.created(form, saved.record.key))
            return .success
        }
        var inputs = self.inputs
        if readsJSON {
            let record = try JSONRecord.only(try FieldInput.readAll(context.terminal.input)).values
            let values = record.dictionary
            // As `FIELD:=JSON`: null and "" as themselves, the rest as typed text, so JSON
            // goes through the same transformers and checks as FIELD=VALUE.
            inputs = Dictionary(uniqueKeysWithValues: values.map { ($0.key, FieldInput(json: $0.value, written: record.writtenNumber($0.key))) })
        }
        let workspace = try context.workspace()
        let form = try workspace.form(named: form)
        // Said of the form, not of the first field it names (a view without INSTEAD OF triggers).
        guard form.takesNewRecords else {
            throw CLIError.validation("\(form.name) takes no new records: every field of it is read-only")
        }
        // A key of the JSON on stdin is data, not usage: an unknown one fails validation.
        if readsJSON, let unknown = inputs.keys.sorted().first(where: { form.field($0) == nil }) {
            throw CLIError.validation(CLIError.unknownField(unknown, of: form).message)
        }
        if !readsJSON {
            inputs = try FieldInput.readingFiles(inputs, literal: literal, of: form, stdin: context.terminal.input)
        }
        let record = try format.reportingRejection(context) {
            try workspace.createRecord(of: form, inputs: inputs)
        }
        // Printed as `show` prints it: a foreign key with its row's label.
        let columns = OutputColumn.labelled(OutputColumn.columns(of: form), by: try workspace.referenceLabels(of: form),
                                            revealSecure: false)
        let options = context.outputOptions()
        var writer: any RecordWriter = format == .json
            ? JSONWriter(columns: columns, sink: context.terminal.output, options: options, style: .single)
            : TextRecordWriter(columns: columns, sink: context.terminal.output, options: options)
        writer.writeAll([columns.map { record.values[$0.key] ?? .null }])
        context.say(Self.created(form, record.key))
        return .success
    }

    /// `Created people 3.`; a record of a view without a key has none to name.
    static func created(_ form: Form, _ key: RecordKey) -> String {
        key.columns.isEmpty ? "Created a record of \(form.name)." : "Created \(form.name) \(key.typedText)."
    }
}
