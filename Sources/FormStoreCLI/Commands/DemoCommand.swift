import FormStorage

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "demo", access: nil,
        abstract: "Create a demo database from the seed examples and print a short tour.",
        discussion: """
        The database holds one table with rows per seed form, the forms' specs and the
        settings store. Run again on the same path, it starts fresh; a file that is not
        a FormStore demo is never overwritten.
        """,
        arguments: [ArgumentDefinition("path", help: "Where to create it (default: --db's path, else ./\(DemoBuilder.defaultPath)).",
                                       arity: .optional)])

    let path: String?

    init(parsing arguments: ParsedArguments) { path = arguments.value("path") }

    func run(_ context: CommandContext) throws -> ExitCode {
        // `--db PATH demo` makes the demo there, as the commands after it will read it (it was ignored).
        let given = context.globals.databaseGivenAsArgument ? context.globals.databasePath : nil
        if let given, path == nil, GlobalOptions.isPostgresURL(given) {
            throw CLIError.usage("the demo is a SQLite file: give its path (formstore demo PATH), not a PostgreSQL URL")
        }
        let target = path ?? given ?? DemoBuilder.defaultPath
        let store: FormStore, replaced: Bool
        do {
            (store, replaced) = try DemoBuilder.create(at: target)
        } catch let error as DatabaseError {
            // Said of the demo's path, not of --db's, which the demo does not open.
            throw CLIError.classifying(error, databasePath: target)
        }
        context.terminal.output.write(replaced ? "Replaced the earlier demo at \(target).\n"
                                               : "Created the demo database \(target).\n")
        try DemoTour(store: store, path: target, out: context.terminal.output).run()
        // The rows go into the database file now, so the demo is one file to copy.
        // Its close would put them there, but the tour's watch of the settings
        // may still hold the store when the process exits (its thread in the
        // middle of a check), and then the rows stayed in the `-wal` file.
        _ = try store.database.writeWithoutTransaction { try $0.fetchAll("PRAGMA wal_checkpoint(TRUNCATE)") }
        return .success
    }
}
