import FormCore

struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "delete", access: .write,
        abstract: "Delete a record.",
        discussion: """
            Shows the record and asks first on a terminal (both on stderr); --yes skips the \
            question (needed when stdin is not a terminal) and prints the deleted record on \
            stdout, as 'show' does. A record other records refer to (a foreign key) is not \
            deleted: the error names the tables and columns that refer to it. A foreign key \
            declared ON DELETE CASCADE or SET NULL is the database's own rule: the delete goes \
            ahead, and the database deletes or clears the rows that refer to it, as its schema says.
            """,
        arguments: [Common.form, Common.key],
        options: [.flag("yes", short: "y", help: "Delete without asking.")])

    let form: String
    let key: KeyArgument
    let confirmed: Bool

    init(parsing arguments: ParsedArguments) throws {
        form = try arguments.argument("form")
        key = try arguments.key("key")
        confirmed = arguments.flag("yes")
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let workspace = try context.workspace()
        let form = try workspace.form(named: form)
        if !confirmed {
            guard context.terminal.input.isTerminal else {
                throw CLIError.usage("Refusing to delete without --yes when stdin is not a terminal")
            }
            // What is about to go, beside the question: the person confirms this record, not a key.
            show(try workspace.record(of: form, key: key), of: form, to: context.terminal.errors, context)
            let prompter = Prompter(input: ByteSourceLines(context.terminal.input), output: context.terminal.errors)
            guard prompter.confirm("Delete \(form.name) \(key.text)?", default: false) == true else {
                context.say("Not deleted.")
                return .success
            }
        }
        let record = confirmed ? try workspace.record(of: form, key: key) : nil
        try workspace.deleteRecord(of: form, key: key)
        // Unasked, the deleted record is the command's output: a script keeps what it removed.
        if let record { show(record, of: form, to: context.terminal.output, context) }
        context.say("Deleted \(form.name) \(key.text).")
        return .success
    }

    private func show(_ record: StoredRecord, of form: Form, to sink: any TextSink, _ context: CommandContext) {
        let columns = OutputColumn.columns(of: form)
        var writer = TextRecordWriter(columns: columns, sink: sink, options: context.outputOptions())
        writer.writeAll([columns.map { record.values[$0.key] ?? .null }])
    }
}
