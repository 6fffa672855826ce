import FoundationEssentials

/// Help and usage text in swift-argument-parser's layout: OVERVIEW, USAGE,
/// ARGUMENTS, OPTIONS, SUBCOMMANDS (and EXIT CODES at the top level).
struct HelpFormatter {
    /// The command and its parents, root first.
    let path: [any ParsableCommand.Type]

    private static let width = 80
    private static let labelColumn = 26

    private var configuration: CommandConfiguration { path.last!.configuration }
    private var isRoot: Bool { path.count == 1 }

    /// `formstore draft show`.
    var commandName: String { path.map { $0.configuration.name }.joined(separator: " ") }

    /// The usage line without the `USAGE:` prefix.
    var usage: String {
        if let custom = configuration.usage { return "\(commandName) \(custom)" }
        var parts = [commandName]
        if isRoot {
            parts += CommandParser.globalOptions.map { "[\($0.displayName)]" }
        }
        for argument in configuration.arguments {
            switch argument.arity {
            case .required: parts.append(argument.displayName)
            case .optional: parts.append("[\(argument.displayName)]")
            case .variadic(let minimum):
                parts.append(minimum > 0 ? "\(argument.displayName) ..." : "[\(argument.displayName) ...]")
            }
        }
        for option in configuration.options {
            switch option.kind {
            case .flag, .value: parts.append("[\(option.displayName)]")
            case .repeated: parts.append("[\(option.displayName) ...]")
            }
        }
        if !configuration.subcommands.isEmpty { parts.append("<subcommand>") }
        return parts.joined(separator: " ")
    }

    /// What follows `Error: …` on stderr: the usage line, and where the help
    /// is, on one line, so that a usage error is always exactly two lines.
    var usageErrorFooter: String {
        "Usage: \(usage)  (see '\(commandName) --help')\n"
    }

    func help() -> String {
        var out = "OVERVIEW: \(configuration.abstract)\n"
        if let discussion = configuration.discussion {
            out += "\n" + discussion + "\n"
        }
        out += "\nUSAGE: \(usage)\n"

        if !configuration.arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for argument in configuration.arguments {
                let label = argument.displayName + (argument.arity == .required || argument.arity == .optional ? "" : " ...")
                out += row(label, argument.help)
            }
        }

        out += "\nOPTIONS:\n"
        var options = configuration.options + CommandParser.globalOptions
        if isRoot { options.append(CommandParser.versionOption) }
        options.append(CommandParser.helpOption)
        for option in options {
            var label = option.displayName
            if let short = option.short { label = "-\(short), \(label)" }
            var text = option.help
            if case .oneOf(let allowed) = option.check, !text.contains(allowed[0]) {
                text += " One of: \(allowed.joined(separator: ", "))."
            }
            if case .repeated = option.kind { text += " (can be repeated)" }
            if let defaultDescription = option.defaultDescription { text += " (default: \(defaultDescription))" }
            out += row(label, text)
        }

        if !configuration.subcommands.isEmpty {
            out += "\nSUBCOMMANDS:\n"
            for sub in configuration.subcommands {
                out += row(sub.configuration.name, sub.configuration.abstract)
            }
            let helpName = isRoot ? "\(commandName) help <subcommand>" : "\(path[0].configuration.name) help \(path.dropFirst().map { $0.configuration.name }.joined(separator: " ")) <subcommand>"
            out += "\n  See '\(helpName)' for detailed help.\n"
        }

        if isRoot {
            out += "\nEXIT CODES:\n"
            for (code, meaning) in ExitCode.documented.sorted(by: { $0.code.rawValue < $1.code.rawValue }) {
                out += row(String(code.rawValue), meaning)
            }
        }
        return out
    }

    /// `  label                   text`, wrapped at 80 columns.
    private func row(_ label: String, _ text: String) -> String {
        let indent = String(repeating: " ", count: Self.labelColumn)
        var lines = wrap(text, width: Self.width - Self.labelColumn)
        let head = "  " + label
        var out: String
        if head.count <= Self.labelColumn - 2 {
            out = head.padded(to: Self.labelColumn) + (lines.isEmpty ? "" : lines.removeFirst())
        } else {
            out = head
        }
        out += "\n"
        for line in lines { out += indent + line + "\n" }
        return out
    }

    private func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
