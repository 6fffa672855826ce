struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "edit",
        abstract: "Edit a record interactively: prompts, or a document in $VISUAL/$EDITOR.",
        discussion: """
        Prompts ask one field at a time; Enter keeps the current value. With --editor
        the record opens as a commented document; an unchanged or empty document
        cancels. Ctrl-C or the end of input keeps a draft and says how to resume
        (exit 1); a document left unchanged after an error keeps a draft (exit 65).
        """,
        arguments: [Common.form, Common.key],
        options: [.flag("editor", help: "Edit the record as a document in $VISUAL, else $EDITOR, else vi.")])

    let form: String
    let key: KeyArgument
    let usesEditor: Bool

    init(parsing arguments: ParsedArguments) throws {
        form = try arguments.argument("form")
        key = try arguments.key("key")
        usesEditor = arguments.flag("editor")
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let frontEnd: EditFrontEnd = usesEditor
            ? .editor(EditorLauncher(environment: context.environment), messages: context.terminal.errors)
            : .prompts(Prompter(input: ByteSourceLines(context.terminal.input, echoSink: context.terminal.errors),
                                output: context.terminal.errors))
        let workspace = try context.workspace()
        let form = try workspace.form(named: form)
        return try workspace.editRecord(of: form, key: key, frontEnd: frontEnd)
    }
}
