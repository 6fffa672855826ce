import FormCore

/// Arguments and options several commands share, declared once.
enum Common {
    static let form = ArgumentDefinition("form", help: "A form spec's name, or any table's name.")
    static let key = ArgumentDefinition(
        "key", help: "The record's primary-key value; a composite key as col=value,col=value; NULL as col:=null.",
        check: .recordKey)
    /// How `set` and `new` take values, NULL and empty text; the same words as the README.
    /// What `--format json` prints for a save that was refused (set, new).
    static let refusedAsJSON = """
        With --format json, a refused save also prints its outcome on stdout as
        one JSON object, {"outcome": "invalid", "errors": [...]} or "conflict" or
        "notFound" (docs/service.md); the error and exit code are as without it.
        """

    static let valueSyntax = """
        FIELD=TEXT is text as typed. FIELD:=JSON takes one JSON value: FIELD:=null
        stores no value (NULL), FIELD:=\"\" empty text; FIELD:=3, FIELD:=true and
        FIELD:=\"x\" are the same as FIELD=3, FIELD=true and FIELD=x. An empty
        FIELD= on a field holding nothing changes nothing; on one holding a value
        it clears it: NULL where the column allows it, empty text for a NOT NULL
        column with a default or one declared DEFAULT ''; on a NOT NULL column
        without a default it is refused as required (FIELD:=\"\" stores empty
        text there). A field whose name holds = is typed with a
        backslash before it: a\\=b=1.

        Secrets: a secure field (a password) given as FIELD=@- is read from stdin,
        as FIELD=@path from a file (one trailing line break dropped), because
        arguments are visible to every user of the machine (ps, /proc/PID/cmdline)
        while the command runs. A BLOB field given as FIELD=@path takes the file's
        bytes. Other fields take @ as text; FIELD:=\"@x\" is never read from a file.
        """
    static let showSecure = OptionDefinition.flag("show-secure", help: "Print secure fields (passwords) instead of ••••.")
    static let children = OptionDefinition.flag(
        "children", help: "Bring in the child rows: a spec's groups, or every table whose foreign key refers to this one.")
    static let rawCSV = OptionDefinition.flag(
        "raw-csv",
        help: "CSV: write text starting with = + - @, a tab or a CR as it is, without the ' that keeps spreadsheets from running it as a formula.")

    /// `--format`, offering `formats` by their raw values: the help, the
    /// parser's check and the command's `arguments.choice("format", …)` read
    /// the same enum, so they cannot disagree.
    static func format<Format: RawRepresentable>(_ formats: [Format], default defaultFormat: Format) -> OptionDefinition
    where Format.RawValue == String {
        var names: [String] = []
        var list = ""
        // A loop, not `joined(separator:)`: every command's parse builds this, and the generic join's metadata cost 0.2 M instructions.
        for format in formats {
            list += list.isEmpty ? format.rawValue : ", " + format.rawValue
            names.append(format.rawValue)
        }
        return .value("format", valueName: "format", help: "Output format: \(list).",
                      check: .oneOf(names), default: defaultFormat.rawValue)
    }
}

extension CommandContext {
    /// Options for writers, from the terminal and a command's `--show-secure`.
    func outputOptions(revealSecure: Bool = false) -> OutputOptions {
        OutputOptions(revealSecure: revealSecure, usesColor: terminal.usesColor, lineWidth: terminal.outputWidth)
    }

    /// Streams a form's records from `workspace` through a writer of `format`.
    /// Secure fields are masked, or with `omittingSecure` left out, unless
    /// `revealSecure`. With `storedValues`, each column is written exactly as
    /// SQLite holds it, by `ExportEncoder` (what `export` writes: JSON, NDJSON or CSV);
    /// otherwise as the form's model values.
    /// `protectsFormulas` off (`--raw-csv`) writes CSV text cells without the `'` against formulas.
    /// `labels` puts a foreign key's label beside its value (`list`; never with `storedValues`).
    func writeRecords(of form: Form, from workspace: any Workspace, selection: RecordSelection = RecordSelection(),
                      format: OutputFormat, revealSecure: Bool, storedValues: Bool = false,
                      omittingSecure: Bool = false, protectsFormulas: Bool = true, labels: ReferenceLabels? = nil) throws {
        var columns = OutputColumn.columns(of: form)
        if omittingSecure && !revealSecure { columns.removeAll(where: \.isSecure) }
        if !storedValues { columns = OutputColumn.labelled(columns, by: labels, revealSecure: revealSecure) }
        var options = outputOptions(revealSecure: revealSecure)
        options.protectsFormulas = protectsFormulas
        if storedValues {
            // Stored values are export's, which writes only what reads back (JSON, NDJSON, CSV).
            guard var encoder = ExportEncoder(format: format, columns: columns, sink: terminal.output,
                                              protectsFormulas: protectsFormulas) else {
                throw CLIError.usage("stored values are written as json, ndjson or csv, not \(format.rawValue)")
            }
            try workspace.exportStoredRows(of: form, columns: columns.map(\.key), selection: selection, into: &encoder)
            encoder.finish()
            if let repaired = encoder.repairedText {
                say("formstore: warning: \(repaired.count) text value(s) were not valid UTF-8 and were written with "
                    + "U+FFFD in place of each bad byte sequence (the first: row \(repaired.row), \(repaired.column)); "
                    + "they will not import back the same")
            }
            return
        }
        var writer = format.writer(columns: columns, to: terminal.output, options: options)
        try workspace.forEachRecord(of: form, selection: selection) { record in
            writer.write(columns.map { record.values[$0.key] ?? .null })
        }
        writer.finish()
    }
}
