import FormCore
struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "edit", access: .writeWithDrafts,
        abstract: "Edit a record interactively: a full-screen form, prompts, or a document in $VISUAL/$EDITOR.",
        discussion: """
        On a terminal the whole form opens on the screen: Tab and Shift-Tab move,
        typing edits in place, Ctrl-S saves, Esc cancels (docs/terminal.md).
        Prompts ask one field at a time, for pipes, dumb terminals and --plain;
        Enter keeps the current value. With --editor the record opens as a
        commented document; an unchanged or empty document cancels. Ctrl-C or the end of input keeps a draft and says how to resume
        (exit 1); a document left unchanged after an error keeps a draft (exit 65).
        With --children the child rows come in as tables on the full-screen form.
        """,
        arguments: [Common.form, Common.key],
        options: [.flag("editor", help: "Edit the record as a document in $VISUAL, else $EDITOR, else vi."),
                  .flag("plain", help: "Ask one field at a time, even on a terminal (screen readers)."),
                  Common.children])

    let form: String
    let key: KeyArgument
    let usesEditor: Bool
    let plain: Bool
    let children: Bool

    init(parsing arguments: ParsedArguments) throws {
        form = try arguments.argument("form")
        key = try arguments.key("key")
        usesEditor = arguments.flag("editor")
        plain = arguments.flag("plain")
        children = arguments.flag("children")
        if usesEditor && plain {
            throw CLIError.usage("--editor and --plain are two ways to edit: give one (--editor opens $EDITOR, --plain asks field by field)")
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let terminal = context.terminal
        let frontEnd: EditFrontEnd
        if usesEditor {
            frontEnd = .editor(EditorLauncher(environment: context.environment.all), messages: terminal.errors)
        } else if !plain && FullScreenEdit.isPossible(input: terminal.input, output: terminal.output,
                                                      environment: context.environment.all) {
            frontEnd = .fullScreen(environment: context.environment.all, messages: terminal.errors)
        } else {
            frontEnd = .prompts(Prompter(input: ByteSourceLines(terminal.input, echoSink: terminal.errors),
                                         output: terminal.errors))
        }
        let workspace = try context.workspace()
        var form = try workspace.form(named: self.form, children: children)
        // A draft holding child rows (kept by an edit with --children) opens
        // with them, so restoring it brings them back instead of dropping them.
        if !children, form.groups.isEmpty, try Self.hasDraftWithRows(of: form, key: key, in: workspace) {
            form = try workspace.form(named: self.form, children: true)
        }
        return try workspace.editRecord(of: form, key: key, frontEnd: frontEnd)
    }

    static func hasDraftWithRows(of form: Form, key: KeyArgument, in workspace: any Workspace) throws -> Bool {
        let withRows = try workspace.drafts(form: form.name).filter { !($0.groups ?? [:]).isEmpty }
        guard !withRows.isEmpty else { return false }
        let stored = try workspace.record(of: form, key: key).key
        return withRows.contains { $0.recordKey == stored }
    }
}
