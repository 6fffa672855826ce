struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "delete",
        abstract: "Delete a record.",
        discussion: "Asks first on a terminal; --yes skips the question (needed when stdin is not a terminal).",
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
            let prompter = Prompter(input: ByteSourceLines(context.terminal.input), output: context.terminal.errors)
            guard prompter.confirm("Delete \(form.name) \(key.text)?", default: false) == true else {
                context.say("Not deleted.")
                return .success
            }
        }
        try workspace.deleteRecord(of: form, key: key)
        context.say("Deleted \(form.name) \(key.text).")
        return .success
    }
}
