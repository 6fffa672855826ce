import FormCore
import FormStorage

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
            ahead, and the database deletes or clears the rows that refer to it, as its schema says; \
            the question (and the message after) counts those rows, and the rows the deleted ones \
            take with them in turn, down every cascade.
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
        if !confirmed, !context.terminal.input.isTerminal {
            throw CLIError.usage("Refusing to delete without --yes when stdin is not a terminal")
        }
        let record = try workspace.record(of: form, key: key)
        // What the schema's ON DELETE rules do to the rows that refer to it, said before and after.
        let effects = try workspace.deleteEffects(of: form, key: key)
        if !confirmed {
            // What is about to go, beside the question: the person confirms this record, not a key.
            // On stderr, which is neutralised (escape codes shown, not run): no colour there.
            show(record, of: form, to: context.terminal.errors, colored: false, context)
            let prompter = Prompter(input: ByteSourceLines(context.terminal.input), output: context.terminal.errors)
            guard prompter.confirm("Delete \(form.name) \(key.text)\(Self.along(effects))?", default: false) == true else {
                context.say("Not deleted.")
                return .success
            }
        }
        try workspace.deleteRecord(of: form, key: key)
        // Unasked, the deleted record is the command's output: a script keeps what it removed.
        if confirmed { show(record, of: form, to: context.terminal.output, colored: context.terminal.usesColor, context) }
        context.say("Deleted \(form.name) \(key.text)\(Self.along(effects)).")
        return .success
    }

    /// `, with 3 rows of lines deleted (ON DELETE CASCADE)`: what the delete does beyond the record,
    /// listed as a sentence does (`A and B`, `A, B, and C`).
    static func along(_ effects: [DeleteEffect]) -> String {
        let said = effects.map(\.description)
        switch said.count {
        case 0: return ""
        case 1, 2: return ", with " + said.joined(separator: ", and ")
        default: return ", with " + said.dropLast().joined(separator: ", ") + ", and " + said.last!
        }
    }

    private func show(_ record: StoredRecord, of form: Form, to sink: any TextSink, colored: Bool, _ context: CommandContext) {
        let columns = OutputColumn.columns(of: form)
        var options = context.outputOptions()
        options.usesColor = colored
        var writer = TextRecordWriter(columns: columns, sink: sink, options: options)
        writer.writeAll([columns.map { record.values[$0.key] ?? .null }])
    }
}
