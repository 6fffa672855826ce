/// What a command declares: its name and help, its positional arguments, its
/// options and its subcommands. Parsing, usage lines and help all come from it.
struct CommandConfiguration: Sendable {
    var name: String
    /// One line: shown after OVERVIEW and in the parent's SUBCOMMANDS list.
    var abstract: String
    /// How far the command touches the database (`DatabaseAccess`); `nil` for
    /// one that opens none through `CommandContext.workspace()`. Every command
    /// says it, with no default: a writer cannot be opened read-only by
    /// omission, nor a reader with write access.
    var access: DatabaseAccess?
    /// Further paragraphs of help, shown under the overview.
    var discussion: String?
    /// The usage line's text after the command path, when the generated one does not say it best.
    var usage: String?
    var arguments: [ArgumentDefinition]
    var options: [OptionDefinition]
    var subcommands: [any ParsableCommand.Type]

    init(name: String, access: DatabaseAccess?, abstract: String, discussion: String? = nil, usage: String? = nil,
         arguments: [ArgumentDefinition] = [], options: [OptionDefinition] = [],
         subcommands: [any ParsableCommand.Type] = []) {
        self.name = name
        self.abstract = abstract
        self.access = access
        self.discussion = discussion
        self.usage = usage
        self.arguments = arguments
        self.options = options
        self.subcommands = subcommands
    }

    func subcommand(named name: String) -> (any ParsableCommand.Type)? {
        subcommands.first { $0.configuration.name == name }
    }
}

/// A positional argument.
struct ArgumentDefinition: Sendable {
    enum Arity: Sendable, Equatable {
        case required
        case optional
        /// All remaining arguments, at least `minimum` of them.
        case variadic(minimum: Int)
    }

    /// The name in help (`<form>`) and the key to read it back by.
    var name: String
    var help: String
    var arity: Arity
    var check: ValueCheck

    init(_ name: String, help: String, arity: Arity = .required, check: ValueCheck = .any) {
        self.name = name
        self.help = help
        self.arity = arity
        self.check = check
    }

    var displayName: String { "<\(name)>" }
}

/// An option: a flag (`--yes`), or one taking a value (`--limit 10`,
/// `--limit=10`), possibly repeated (`--where a=1 --where b=2`).
struct OptionDefinition: Sendable {
    enum Kind: Sendable, Equatable {
        case flag
        case value(name: String)
        case repeated(name: String)
    }

    /// Without the leading dashes; also the key to read it back by.
    var name: String
    var short: Character?
    var kind: Kind
    var help: String
    var check: ValueCheck
    /// Shown as `(default: …)`; the command applies it.
    var defaultDescription: String?

    static func flag(_ name: String, short: Character? = nil, help: String) -> OptionDefinition {
        OptionDefinition(name: name, short: short, kind: .flag, help: help, check: .any)
    }

    static func value(_ name: String, short: Character? = nil, valueName: String, help: String,
                      check: ValueCheck = .any, default defaultDescription: String? = nil) -> OptionDefinition {
        OptionDefinition(name: name, short: short, kind: .value(name: valueName), help: help,
                         check: check, defaultDescription: defaultDescription)
    }

    static func repeated(_ name: String, valueName: String, help: String,
                         check: ValueCheck = .any) -> OptionDefinition {
        OptionDefinition(name: name, short: nil, kind: .repeated(name: valueName), help: help, check: check)
    }

    /// `--format <format>` as it appears in messages and usage.
    var displayName: String {
        switch kind {
        case .flag: return "--\(name)"
        case .value(let v), .repeated(let v): return "--\(name) <\(v)>"
        }
    }

    var takesValue: Bool { kind != .flag }
}

/// What a value must look like; checked while parsing so that a bad value is
/// a usage error before anything runs.
enum ValueCheck: Sendable, Equatable {
    case any
    /// One of these words (`--format`).
    case oneOf([String])
    /// A whole number of at least 1 (`--limit`).
    case positiveInteger
    /// `FIELD=VALUE`.
    case assignment
    /// A record key: `3`, or `col=value,col=value` for a composite key.
    case recordKey

    /// - throws: `CLIError.usage` naming `displayName` when `value` does not fit.
    func validate(_ value: String, for displayName: String) throws {
        switch self {
        case .any:
            return
        case .oneOf(let allowed):
            guard allowed.contains(value) else {
                throw CLIError.usage("The value '\(value)' is invalid for '\(displayName)'. "
                    + "Please provide one of \(allowed.map { "'\($0)'" }.joined(separator: ", ")).")
            }
        case .positiveInteger:
            guard let n = Int(value), n > 0 else {
                throw CLIError.usage("The value '\(value)' is invalid for '\(displayName)': expected a positive whole number.")
            }
        case .assignment:
            _ = try Assignment(parsing: value)
        case .recordKey:
            _ = try KeyArgument(parsing: value)
        }
    }
}
