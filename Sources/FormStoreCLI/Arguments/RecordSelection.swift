/// Which records `list` and `export` print, from their options: `--where`
/// (several are ANDed), `--search`, `--sort`, `--offset` and `--limit`.
struct RecordSelection: Sendable, Hashable {
    /// One `--sort` key: `FIELD`, or `-FIELD` for descending.
    struct SortKey: Sendable, Hashable {
        var field: String
        var descending: Bool

        init(field: String, descending: Bool) {
            self.field = field
            self.descending = descending
        }

        /// `FIELD`, or `-FIELD` for descending; a field whose name starts
        /// with `-` (or `\`) is typed with a backslash before it (`\-x`).
        ///
        /// - throws: `CLIError.usage` for no field, naming `option`.
        init(parsing text: String, option: String) throws {
            descending = text.hasPrefix("-")
            field = TypedName.unescape(descending ? text.dropFirst() : text[...])
            guard !field.isEmpty else { throw CLIError.usage("\(option): expected FIELD or -FIELD, got '\(text)'") }
        }

        /// `field` as a sort key is typed for an ascending order (`init(parsing:option:)` reads it back).
        static func typed(_ field: String) -> String {
            field.hasPrefix("-") || field.hasPrefix("\\") ? "\\" + field : field
        }
    }

    /// What a message calls the conditions and the sort: the command's
    /// options, or a web page's or the API's parameters.
    struct Names: Sendable, Hashable {
        var conditions: String
        var sort: String

        static let options = Names(conditions: "--where", sort: "--sort")
    }

    var conditions: [RecordCondition] = []
    var search: String?
    var sort: [SortKey] = []
    var offset = 0
    var limit: Int?
    var names = Names.options

    init(conditions: [RecordCondition] = [], search: String? = nil, sort: [SortKey] = [], offset: Int = 0,
         limit: Int? = nil) {
        self.conditions = conditions
        self.search = search
        self.sort = sort
        self.offset = offset
        self.limit = limit
    }

    /// - throws: `CLIError.usage` for a condition, sort key or offset that does not parse.
    init(parsing arguments: ParsedArguments) throws {
        conditions = try arguments.all("where").map(RecordCondition.init(parsing:))
        search = arguments.value("search")
        sort = try arguments.all("sort").map { try SortKey(parsing: $0, option: "--sort") }
        if let text = arguments.value("offset") {
            guard let n = Int(text), n >= 0 else {
                throw CLIError.usage("The value '\(text)' is invalid for '--offset': expected a whole number, 0 or more.")
            }
            offset = n
        }
        limit = try arguments.positiveInteger("limit")
    }

    /// The options that choose records, as `list` and `export` declare them.
    static let options: [OptionDefinition] = [
        .repeated("where", valueName: "condition",
                  help: "Only records where the condition holds: FIELD=VALUE, FIELD!=VALUE, FIELD<VALUE, <=, >, >=, "
                      + "FIELD~TEXT (contains), FIELD= (NULL or empty), 'FIELD is null', 'FIELD is not null'. "
                      + "VALUE is read as if typed into the field (a date in any accepted form). All must hold. "
                      + "A field whose name holds =, !, <, > or ~ is typed with a backslash before it (x\\>y>3)."),
        .value("search", valueName: "text", help: "Only records holding TEXT in one of the form's text fields."),
        .repeated("sort", valueName: "field", help: "Sort by FIELD, or -FIELD for descending (the key ends every order); "
                      + "a field whose name starts with - is typed \\-x."),
        .value("offset", valueName: "n", help: "Skip the first N records."),
        .value("limit", valueName: "n", help: "At most N records.", check: .positiveInteger),
    ]
}
