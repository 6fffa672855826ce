/// What introspection reads from a `CREATE TABLE` statement that no pragma
/// reports: `WITHOUT ROWID`, `STRICT`, and the value lists of `CHECK (column IN (...))`.
struct CreateTableSQL {
    /// Declared `WITHOUT ROWID` (among the options after the column list).
    let isWithoutRowID: Bool
    /// Declared `STRICT`: SQLite refuses a value of another type, and an
    /// `ANY` column keeps every value as it is given.
    let isStrict: Bool
    /// Allowed values by column name, as written in the CHECK.
    let allowedValues: [String: [DatabaseValue]]
    /// The expression of each CHECK, in order, as written (the tokens'
    /// text, a comment or a run of white space between them one space).
    let checks: [String]

    init(_ sql: String) {
        // Most tables have neither keyword: tokenizing their statement cost a
        // quarter of reading their columns (docs/binary.md).
        let upper = sql.uppercased()
        guard upper.containsUTF8("CHECK") || upper.containsUTF8("WITHOUT") || upper.containsUTF8("STRICT") else {
            isWithoutRowID = false
            isStrict = false
            allowedValues = [:]
            checks = []
            return
        }
        let (tokens, spans, chars) = SQLToken.spans(sql)
        var withoutRowID = false
        var strict = false
        if let open = tokens.firstIndex(of: .symbol("(")), let close = Self.matchingClose(tokens, from: open) {
            let options = tokens[(close + 1)...]
            withoutRowID = zip(options, options.dropFirst()).contains { $0.isKeyword("WITHOUT") && $1.isKeyword("ROWID") }
            strict = options.contains { $0.isKeyword("STRICT") }
        }
        var lists: [String: [DatabaseValue]] = [:]
        var texts: [String] = []
        var i = 0
        while i < tokens.count {
            if tokens[i].isKeyword("CHECK"), i + 1 < tokens.count, tokens[i + 1] == .symbol("("),
               let close = Self.matchingClose(tokens, from: i + 1) {
                if let (column, values) = Self.inList(Array(tokens[(i + 2)..<close])), lists[column] == nil {
                    lists[column] = values
                }
                texts.append(Self.text(of: spans[(i + 2)..<close], in: chars))
                i = close
            }
            i += 1
        }
        isWithoutRowID = withoutRowID
        isStrict = strict
        allowedValues = lists
        checks = texts.filter { !$0.isEmpty }
    }

    /// The source text of the tokens at `spans`, one space where anything
    /// (white space, a comment) lay between two of them.
    private static func text(of spans: ArraySlice<Range<Int>>, in chars: [Character]) -> String {
        var out = ""
        var last: Int?
        for span in spans {
            if let last, span.lowerBound > last { out += " " }
            out += String(chars[span])
            last = span.upperBound
        }
        return out
    }

    /// The index of the `)` closing the `(` at `open`.
    private static func matchingClose(_ tokens: [SQLToken], from open: Int) -> Int? {
        var depth = 0
        for index in open..<tokens.count {
            if tokens[index] == .symbol("(") { depth += 1 }
            if tokens[index] == .symbol(")") {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }

    /// Reads `column IN (v1, v2, ...)`, possibly in extra parentheses; `nil` for any other expression.
    private static func inList(_ expression: [SQLToken]) -> (String, [DatabaseValue])? {
        var tokens = expression[...]
        while tokens.first == .symbol("("), let close = matchingClose(Array(tokens), from: 0),
              close == tokens.count - 1 {
            tokens = tokens.dropFirst().dropLast()
        }
        let parts = Array(tokens)
        // A name, IN, then a parenthesised list that ends the expression.
        guard parts.count >= 4, parts[1].isKeyword("IN"), parts[2] == .symbol("("),
              parts.last == .symbol(")"), matchingClose(parts, from: 2) == parts.count - 1 else { return nil }
        let column: String
        switch parts[0] {
        case .word(let w): column = w
        case .quoted(let q), .string(let q): column = q  // SQLite accepts a 'quoted' name there too
        default: return nil
        }
        var values: [DatabaseValue] = []
        var negative = false
        var expectValue = true
        for token in parts[3..<(parts.count - 1)] {
            switch token {
            case .symbol(","):
                guard !expectValue else { return nil }
                expectValue = true
            case .symbol("-") where expectValue && !negative:
                negative = true
            case .string(let s) where expectValue && !negative:
                values.append(.text(s))
                expectValue = false
            case .quoted(let s) where expectValue && !negative:
                // SQLite reads an unresolved "double-quoted" word as a string.
                values.append(.text(s))
                expectValue = false
            case .number(let n) where expectValue:
                guard let value = number(n, negative: negative) else { return nil }
                values.append(value)
                negative = false
                expectValue = false
            case .word(let w) where expectValue && !negative && w.uppercased() == "NULL":
                values.append(.null)
                expectValue = false
            default:
                return nil
            }
        }
        guard !expectValue, !values.isEmpty else { return nil }
        return (column, values)
    }

    private static func number(_ text: String, negative: Bool) -> DatabaseValue? {
        let signed = negative ? "-" + text : text
        if let integer = Int64(signed) { return .integer(integer) }
        if let real = Double(signed) { return .real(real) }
        return nil
    }
}

extension TableInfo {
    /// The text of each `CHECK` constraint of the table, column or table
    /// level, in the order the `CREATE TABLE` gives them (`n > 0`,
    /// `s IN ('on', 'off')`): what SQLite refuses besides types, NOT NULL and keys.
    public var checkConstraints: [String] { CreateTableSQL(sql).checks }
}
