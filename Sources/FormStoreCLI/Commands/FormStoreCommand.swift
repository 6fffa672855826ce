/// The root: `formstore [--db PATH] [--forms DIR] COMMAND ...`.
struct FormStoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "formstore", access: nil,
        abstract: "Edit rows of any SQLite database through forms.",
        discussion: """
        A form is a JSON spec in the forms folder, or any table of the database
        (its form is inferred from the columns). KEY is a record's primary-key
        value; a composite key is written col=value,col=value (a NULL key
        value as col:=null).
        Data goes to stdout, messages to stderr. Only init, migrate and demo
        create a database; commands that fail change nothing.
        FORMSTORE_BUSY_TIMEOUT_MS: how long to wait for another process's lock
        (default 5000) before exiting with 75.
        FORMSTORE_HISTORY_KEEP: how much history each save keeps: 100 (saves per
        record), 90d (days), or 100,90d (default: everything).
        """,
        subcommands: [
            InitCommand.self, MigrateCommand.self, FormsCommand.self, FormCommand.self,
            ListCommand.self, ShowCommand.self, NewCommand.self, SetCommand.self, EditCommand.self,
            DeleteCommand.self, HistoryCommand.self, RevertCommand.self, DraftsCommand.self, DraftCommand.self,
            ImportCommand.self, ExportCommand.self, ChoicesCommand.self, ServeCommand.self, DemoCommand.self,
            HelpCommand.self,
        ])

    init(parsing arguments: ParsedArguments) {}
}
