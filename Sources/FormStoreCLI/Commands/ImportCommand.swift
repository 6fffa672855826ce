import FormCore

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "import", access: .write,
        abstract: "Import records from NDJSON, JSON or CSV: every row validated, all or nothing.",
        discussion: "Reads FILE, or stdin when FILE is absent or '-'. The format defaults to the file's extension (.tsv is CSV "
            + "with tabs), else csv when --delimiter is given, else ndjson.",
        arguments: [Common.form, ArgumentDefinition("file", help: "The file to read.", arity: .optional)],
        options: [
            .value("format", valueName: "format", help: "Input format: \(InputFormat.allCases.map(\.rawValue).joined(separator: ", ")).",
                   check: .oneOf(InputFormat.allCases.map(\.rawValue)), default: "from the extension, else ndjson"),
            .value("delimiter", valueName: "char",
                   help: "The character between CSV fields: one ASCII character, or \\t for a tab.", default: ","),
            .flag("dry-run", help: "Check every row as the import would, the database's constraints too, in a transaction "
                  + "rolled back at the end: nothing is written (it takes the write lock, so the database must be writable)."),
            .flag("children", help: "JSON and NDJSON: a member holding an array of objects is a child group's rows, stating the whole group (a row with its key updated, one without inserted, a stored row left out deleted)."),
        ])

    let form: String
    let file: String?
    let format: InputFormat
    let delimiter: UInt8
    let dryRun: Bool
    let children: Bool

    init(parsing arguments: ParsedArguments) throws {
        form = try arguments.argument("form")
        file = arguments.value("file").flatMap { $0 == "-" ? nil : $0 }
        // A delimiter is CSV's: given, it says the file is one (`x.txt --delimiter ';'`). A `.tsv` is tab-separated.
        let givenDelimiter = arguments.value("delimiter")
        let isTSV = file?.lowercased().hasSuffix(".tsv") == true
        let guessed = file.flatMap { InputFormat(pathExtensionOf: $0) } ?? (givenDelimiter != nil ? .csv : .ndjson)
        format = try arguments.choice("format", default: guessed)
        dryRun = arguments.flag("dry-run")
        delimiter = try Self.delimiter(givenDelimiter ?? (isTSV ? "\\t" : ","))
        if givenDelimiter != nil && format != .csv {
            throw CLIError.usage("--delimiter is for CSV, and the input is read as \(format.rawValue) (give --format csv)")
        }
        children = arguments.flag("children")
        if children && format == .csv {
            throw CLIError.usage("--children needs --format json or ndjson: child rows do not fit in a flat CSV row")
        }
    }

    /// `--delimiter`: one ASCII character other than a quote or a line break; `\t` (or `tab`) for a tab.
    static func delimiter(_ text: String) throws -> UInt8 {
        if text == "\\t" || text == "tab" || text == "\t" { return UInt8(ascii: "\t") }
        guard text.utf8.count == 1, let byte = text.utf8.first, byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\"") else {
            throw CLIError.usage("The value '\(text)' is invalid for '--delimiter': expected one ASCII character other than a quote, or \\t.")
        }
        return byte
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let source: any ByteSource = try file.map { try FileDescriptorSource(path: $0) } ?? context.terminal.input
        let workspace = try context.workspace()
        // The input is tokenized on a thread of its own, beside the rows' checks and inserts.
        // Ctrl-C stops the import at its next row, and its transaction is undone (`ImportInterruption`).
        let interruption = ImportInterruption()
        var opened: PeekingReader?
        // Made for the form, whose groups' rows JSON records may hold; its first records are read
        // before the import only for an inferred date field over an empty column.
        func reader(for form: Form) -> PeekingReader {
            if let opened { return opened }
            let groups = Set(form.groups.map(\.key))
            let reader = PeekingReader(ReadAheadReader(format.reader(source, csvDelimiter: delimiter, groups: groups),
                                                       interruption: interruption))
            opened = reader
            return reader
        }
        let summary = try interruption.whileTrapped {
            let form = try workspace.form(importing: form, children: children) { form, names in
                let reader = reader(for: form)
                reader.expect(names: names)
                return reader.peek(atMost: PeekingReader.lookAhead)
            }
            return try workspace.importRecords(of: form, from: reader(for: form), dryRun: dryRun, children: children)
        }
        guard summary.failures.isEmpty else {
            // By line: a row a foreign key refused is told after the rows it waited for.
            var details = summary.failures.sorted { $0.line < $1.line }.map(\.description)
            let unreported = summary.failedRows - Set(summary.failures.map(\.line)).count
            if unreported > 0 { details.append("… and \(unreported) more row(s)") }
            throw CLIError.validation("\(summary.failedRows) row(s) failed validation; nothing was imported",
                                      details: details)
        }
        let verb = dryRun ? "Would import" : "Imported"
        let total = summary.inserted + summary.updated + summary.unchanged
        context.say("\(verb) \(total) row(s): \(summary.inserted) new, \(summary.updated) updated, \(summary.unchanged) unchanged.")
        return .success
    }
}
