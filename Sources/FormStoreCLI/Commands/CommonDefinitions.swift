import FormCore

/// Arguments and options several commands share, declared once.
enum Common {
    static let form = ArgumentDefinition("form", help: "A form spec's name, or any table's name.")
    static let key = ArgumentDefinition(
        "key", help: "The record's primary-key value; a composite key as col=value,col=value.",
        check: .recordKey)
    static let showSecure = OptionDefinition.flag("show-secure", help: "Print secure fields (passwords) instead of ••••.")

    static func format(_ formats: [String], default defaultFormat: String) -> OptionDefinition {
        .value("format", valueName: "format", help: "Output format: \(formats.joined(separator: ", ")).",
               check: .oneOf(formats), default: defaultFormat)
    }
}

extension CommandContext {
    /// Options for writers, from the terminal and a command's `--show-secure`.
    func outputOptions(revealSecure: Bool = false) -> OutputOptions {
        OutputOptions(revealSecure: revealSecure, usesColor: terminal.usesColor)
    }

    /// Streams a cursor's records through a writer of `format`.
    func write(_ cursor: any RecordCursor, of form: Form, format: OutputFormat, revealSecure: Bool) throws {
        var cursor = cursor
        let columns = OutputColumn.columns(of: form)
        var writer = format.writer(columns: columns, to: terminal.output, options: outputOptions(revealSecure: revealSecure))
        while let record = try cursor.next() {
            writer.write(columns.map { record.values[$0.key] ?? .null })
        }
        writer.finish()
    }
}
