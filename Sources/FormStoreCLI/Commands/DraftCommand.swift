import FormCore
import FormStorage

/// `draft show|restore|discard`: a group of subcommands.
struct DraftCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "draft", access: nil,
        abstract: "Show, restore or discard one draft.",
        subcommands: [DraftShowCommand.self, DraftRestoreCommand.self, DraftDiscardCommand.self])

    init(parsing arguments: ParsedArguments) {}
}

/// The draft a subcommand acts on: `FORM KEY`, or a `DRAFT-ID` alone.
enum DraftTarget {
    static let arguments = [
        ArgumentDefinition("form-or-draft-id", help: "A form's name (followed by KEY), or a draft's id."),
        ArgumentDefinition("key", help: "The record's key, when the first argument is a form.",
                           arity: .optional, check: .recordKey),
    ]
    static let usage = "(<form> <key> | <draft-id>)"

    static func reference(_ arguments: ParsedArguments) throws -> DraftReference {
        let first = try arguments.argument("form-or-draft-id")
        guard arguments.value("key") != nil else { return .id(first) }
        return .record(form: first, key: try arguments.key("key"))
    }
}

struct DraftShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "show", access: .read,
        abstract: "Show a draft's values next to its base and the stored ones.",
        discussion: """
            One row per field the draft holds: base is the value when the draft was made, \
            draft is what was typed, stored is the value in the database now (empty for a \
            new record). A field whose stored value moved away from its base is a conflict \
            for 'draft restore'.
            """,
        usage: DraftTarget.usage + " [--format <format>]",
        arguments: DraftTarget.arguments, options: [Common.format(ShowCommand.Format.allCases, default: .text)])

    let reference: DraftReference
    let format: ShowCommand.Format

    init(parsing arguments: ParsedArguments) throws {
        reference = try DraftTarget.reference(arguments)
        format = try arguments.choice("format", default: .text)
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let workspace = try context.workspace()
        let draft = try workspace.draft(reference)
        // A database that cannot be read (damaged, locked) leaves the draft shown without its record.
        var unreadable = false
        let record: StoredRecord?
        do {
            record = try workspace.storedRecord(for: draft)
        } catch let error as DatabaseError where StorageWorkspace.leavesDraftsApart(error) {
            record = nil
            unreadable = true
        }
        let stored = record?.values ?? [:]
        let columns = ["field", "base", "draft", "stored"].map { OutputColumn(key: $0) }
        let output: OutputFormat = format == .json ? .json : .table
        var writer = output.writer(columns: columns, to: context.terminal.output, options: context.outputOptions())
        // The workspace drops a draft's secure values when it loads it; the stored one is masked too.
        let form = try? workspace.form(named: draft.form)
        let secure = Set(form?.fields.filter(\.isSecure).map(\.key) ?? [])
        writer.writeAll(draft.changedFields.map { field -> [FieldValue] in
            let row = [draft.base[field] ?? .null, draft.values[field] ?? .null, stored[field] ?? .null]
            var shown = row.map { secure.contains(field) && !$0.isEmpty ? .text(ValueText.mask) : $0 }
            if output != .json, let definition = form?.field(field), !definition.isSecure {
                // As the field shows them (a day as a day, `(null)` apart from `(empty)`), as `set` prints a change.
                shown = row.map { .text(FieldDisplay.text($0, of: definition)) }
            }
            // Typed text that did not parse, as typed.
            if let typed = draft.inputs[field] { shown[1] = .text(typed) }
            // A record deleted since the draft was made holds nothing: said so, not shown as NULL.
            if unreadable { shown[2] = .text("(cannot read)") }
            else if output != .json, draft.recordKey != nil, record == nil { shown[2] = .text("(record deleted)") }
            return [.text(field)] + shown
        } + draft.changedGroups.map { group -> [FieldValue] in
            // A group's rows: how many the draft holds against how many it was based on.
            let rows = draft.groups?[group]
            let now: FieldValue = record.map { .text("\($0.groups[group]?.count ?? 0) row(s)") } ?? .null
            return [.text(group), .text("\(rows?.base.count ?? 0) row(s)"), .text("\(rows?.rows.count ?? 0) row(s)"), now]
        })
        if output != .json, draft.recordKey != nil, record == nil, !unreadable {
            context.say("The record was deleted since the draft was made: it cannot be restored "
                        + "('formstore draft discard \(draft.id)' drops it).")
        }
        // What the rows hold, under the counts: the cells each changed or added row was given.
        if output != .json, let form {
            let lines = draft.shownRowLines(form: form)
            if !lines.isEmpty { context.terminal.output.write("\n" + lines.map { $0 + "\n" }.joined()) }
        }
        return .success
    }
}

struct DraftRestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "restore", access: .write,
        abstract: "Save a draft over its record (merging when the record changed since).",
        discussion: """
            A field changed in the draft and, since the draft was made, in the record too is a \
            conflict: without a choice nothing is saved (exit 75). --keep mine saves the draft's \
            value, --keep theirs keeps the stored one; --keep-field FIELD=mine|theirs chooses \
            for one field and wins over --keep. 'draft show' lists base, draft and stored values.
            """,
        usage: DraftTarget.usage + " [--keep mine|theirs] [--keep-field <field=mine|theirs> ...]",
        arguments: DraftTarget.arguments,
        options: [
            .value("keep", valueName: "side", help: "For every conflicting field: mine (the draft's) or theirs (stored).",
                   check: .oneOf(ConflictChoice.Side.allCases.map(\.rawValue))),
            .repeated("keep-field", valueName: "field=side",
                      help: "For one conflicting field: FIELD=mine or FIELD=theirs."),
        ])

    let reference: DraftReference
    let choice: ConflictChoice

    init(parsing arguments: ParsedArguments) throws {
        reference = try DraftTarget.reference(arguments)
        var choice = ConflictChoice(all: arguments.value("keep").flatMap(ConflictChoice.Side.init(rawValue:)))
        for text in arguments.all("keep-field") {
            guard let (field, rest) = TypedName.split(text, at: ["="]), !field.isEmpty,
                  let side = ConflictChoice.Side(rawValue: String(rest.dropFirst())) else {
                throw CLIError.usage("The value '\(text)' is invalid for '--keep-field <field=side>': "
                    + "expected FIELD=mine or FIELD=theirs.")
            }
            choice.fields[field] = side
        }
        self.choice = choice
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let record = try context.workspace().restoreDraft(reference, choosing: choice)
        context.say("Restored and saved \(record.key.typedText).")
        return .success
    }
}

struct DraftDiscardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "discard", access: .write,
        abstract: "Delete a draft.",
        usage: DraftTarget.usage, arguments: DraftTarget.arguments)

    let reference: DraftReference

    init(parsing arguments: ParsedArguments) throws { reference = try DraftTarget.reference(arguments) }

    func run(_ context: CommandContext) throws -> ExitCode {
        try context.workspace().discardDraft(reference)
        context.say("Draft discarded.")
        return .success
    }
}
