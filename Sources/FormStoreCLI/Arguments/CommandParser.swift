/// Splits the command line into the command path, its checked arguments and
/// the global options, the way swift-argument-parser does:
///
/// - `--name value` and `--name=value`; `-h`; repeated options collect every value;
/// - a flag takes no value; a value-taking option given twice keeps the last;
/// - the first positional word of a command with subcommands names a subcommand;
/// - after `--` every word is positional;
/// - `-5` is a positional value (a negative number), not an option;
/// - global options (`--db`, `--forms`, `--trust-schema`) are accepted before or after the subcommand.
struct CommandParser {
    /// What the command line asks for.
    struct Invocation {
        enum Action {
            case run(any ParsableCommand)
            case help
            case version
        }

        var path: [any ParsableCommand.Type]
        var action: Action
        var globals: ParsedArguments
    }

    /// A usage error and the command whose usage line goes with it.
    struct Failure: Error {
        var error: CLIError
        var path: [any ParsableCommand.Type]
    }

    static let globalOptions: [OptionDefinition] = [
        .value("db", valueName: "path",
               help: "The SQLite database to open, or a PostgreSQL URL (postgres://…).", default: "$FORMSTORE_DB, else ./formstore.sqlite"),
        .value("forms", valueName: "dir",
               help: "A folder of JSON form specs.", default: "./forms when it exists"),
        .flag("trust-schema",
              help: "Let the database's triggers and views call functions SQLite does not mark safe "
                  + "(only for a database you trust; also $FORMSTORE_TRUST_SCHEMA=1)."),
    ]
    static let helpOption = OptionDefinition.flag("help", short: "h", help: "Show help information.")
    static let versionOption = OptionDefinition.flag("version", help: "Show the version.")

    let root: any ParsableCommand.Type

    func parse(_ tokens: [String]) throws -> Invocation {
        var path: [any ParsableCommand.Type] = [root]
        var parsed = ParsedArguments()
        var globals = ParsedArguments()
        var positionals: [String] = []
        var wantsHelp = false
        var wantsVersion = false
        var terminated = false
        var index = 0

        func failure(_ message: String) -> Failure { Failure(error: .usage(message), path: path) }

        func unknownOption(_ token: String) -> Failure {
            let names = (path.last!.configuration.options + Self.globalOptions + [Self.helpOption])
                .map { "--\($0.name)" }
            var message = "Unknown option '\(token)'"
            if token.hasPrefix("--"), let guess = Suggestion.closest(to: token, among: names) {
                message += ". Did you mean '\(guess)'?"
            }
            return failure(message)
        }

        func take(_ option: OptionDefinition, inline: String?, spelled: String) throws {
            let isGlobal = Self.globalOptions.contains { $0.name == option.name }
            guard option.takesValue else {
                if inline != nil { throw failure("The option '\(spelled)' does not take a value") }
                if isGlobal { globals.flags.insert(option.name) } else { parsed.flags.insert(option.name) }
                return
            }
            let value: String
            if let inline {
                value = inline
            } else if index < tokens.count, !tokens[index].hasPrefix("--"), tokens[index] != "-h" {
                value = tokens[index]
                index += 1
            } else {
                throw failure("Missing value for '\(option.displayName)'")
            }
            do {
                try option.check.validate(value, for: option.displayName)
            } catch let error as CLIError {
                throw Failure(error: error, path: path)
            }
            if isGlobal {
                globals.values[option.name] = [value]
            } else if case .repeated = option.kind {
                parsed.values[option.name, default: []].append(value)
            } else {
                parsed.values[option.name] = [value]
            }
        }

        while index < tokens.count {
            let token = tokens[index]
            index += 1
            let configuration = path.last!.configuration

            if terminated {
                positionals.append(token)
            } else if token == "--" {
                terminated = true
            } else if token.hasPrefix("--") {
                let body = token.dropFirst(2)
                let name = body.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                let inline = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
                if name == Self.helpOption.name { wantsHelp = true; continue }
                if name == Self.versionOption.name && path.count == 1 { wantsVersion = true; continue }
                guard let option = (configuration.options + Self.globalOptions).first(where: { $0.name == name }) else {
                    throw unknownOption(token)
                }
                try take(option, inline: inline, spelled: "--\(name)")
            } else if token.hasPrefix("-") && token.count > 1 && Double(token) == nil {
                let letter = token.dropFirst()
                if letter == "h" { wantsHelp = true; continue }
                guard letter.count == 1,
                      let option = configuration.options.first(where: { $0.short == letter.first }) else {
                    throw unknownOption(token)
                }
                try take(option, inline: nil, spelled: token)
            } else if !configuration.subcommands.isEmpty && positionals.isEmpty {
                guard let sub = configuration.subcommand(named: token) else {
                    var message = path.count == 1 ? "Unknown command '\(token)'" : "Unknown subcommand '\(token)'"
                    let names = configuration.subcommands.map { $0.configuration.name }
                    if let guess = Suggestion.closest(to: token, among: names) {
                        message += ". Did you mean '\(guess)'?"
                    }
                    throw failure(message)
                }
                path.append(sub)
            } else {
                positionals.append(token)
            }
        }

        if wantsHelp { return Invocation(path: path, action: .help, globals: globals) }
        if wantsVersion { return Invocation(path: path, action: .version, globals: globals) }

        do {
            try assign(positionals, to: path.last!.configuration.arguments, into: &parsed)
            let command = try path.last!.init(parsing: parsed)
            return Invocation(path: path, action: .run(command), globals: globals)
        } catch let error as CLIError {
            throw Failure(error: error, path: path)
        }
    }

    /// Hands out positional words to the declared arguments, in order.
    private func assign(_ words: [String], to arguments: [ArgumentDefinition],
                        into parsed: inout ParsedArguments) throws {
        var remaining = words[...]
        for (i, argument) in arguments.enumerated() {
            // Later required arguments keep their words.
            let reservedAfter = arguments[(i + 1)...].filter { $0.arity == .required }.count
            switch argument.arity {
            case .required:
                guard let word = remaining.popFirst() else {
                    throw CLIError.usage("Missing expected argument '\(argument.displayName)'")
                }
                try argument.check.validate(word, for: argument.displayName)
                parsed.values[argument.name] = [word]
            case .optional:
                guard remaining.count > reservedAfter, let word = remaining.popFirst() else { continue }
                try argument.check.validate(word, for: argument.displayName)
                parsed.values[argument.name] = [word]
            case .variadic(let minimum):
                let taken = Array(remaining.prefix(max(0, remaining.count - reservedAfter)))
                remaining = remaining.dropFirst(taken.count)
                guard taken.count >= minimum else {
                    throw CLIError.usage("Missing expected argument '\(argument.displayName) ...'")
                }
                for word in taken { try argument.check.validate(word, for: argument.displayName) }
                parsed.values[argument.name] = taken
            }
        }
        if let extra = remaining.first {
            throw CLIError.usage("Unexpected argument '\(extra)'")
        }
    }
}
