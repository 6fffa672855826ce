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

    init(_ sql: String) {
        // Most tables have neither keyword: tokenizing their statement cost a
        // quarter of reading their columns (docs/binary.md).
        let upper = sql.uppercased()
        guard upper.containsUTF8("CHECK") || upper.containsUTF8("WITHOUT") || upper.containsUTF8("STRICT") else {
            isWithoutRowID = false
            isStrict = false
            allowedValues = [:]
            return
        }
        let tokens = SQLToken.tokenize(sql)
        var withoutRowID = false
        var strict = false
        if let open = tokens.firstIndex(of: .symbol("(")), let close = Self.matchingClose(tokens, from: open) {
            let options = tokens[(close + 1)...]
            withoutRowID = zip(options, options.dropFirst()).contains { $0.isKeyword("WITHOUT") && $1.isKeyword("ROWID") }
            strict = options.contains { $0.isKeyword("STRICT") }
        }
        var lists: [String: [DatabaseValue]] = [:]
        var i = 0
        while i < tokens.count {
            if tokens[i].isKeyword("CHECK"), i + 1 < tokens.count, tokens[i + 1] == .symbol("("),
               let close = Self.matchingClose(tokens, from: i + 1) {
                if let (column, values) = Self.inList(Array(tokens[(i + 2)..<close])), lists[column] == nil {
                    lists[column] = values
                }
                i = close
            }
            i += 1
        }
        isWithoutRowID = withoutRowID
        isStrict = strict
        allowedValues = lists
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

extension CreateTableSQL {
    /// The text of each `CHECK (…)` in `sql`, in order, as written (the
    /// expression inside the parentheses, white space runs made one space).
    /// Strings, quoted names and comments are skipped whole, so a `CHECK` or
    /// a parenthesis inside one is not read as one.
    static func checkExpressions(_ sql: String) -> [String] {
        let scalars = Array(sql.unicodeScalars)
        var found: [String] = []
        var i = 0
        /// The index just past the string, quoted name or comment starting at `i`; `nil` when none starts there.
        func skipQuoted(_ i: Int) -> Int? {
            let c = scalars[i]
            let close: Unicode.Scalar? = switch c {
            case "'": "'"
            case "\"": "\""
            case "`": "`"
            case "[": "]"
            default: nil
            }
            if let close {
                var j = i + 1
                while j < scalars.count {
                    if scalars[j] == close {
                        // A doubled quote is one inside the string.
                        if close != "]", j + 1 < scalars.count, scalars[j + 1] == close { j += 2; continue }
                        return j + 1
                    }
                    j += 1
                }
                return scalars.count
            }
            if c == "-", i + 1 < scalars.count, scalars[i + 1] == "-" {
                var j = i + 2
                while j < scalars.count, scalars[j] != "\n" { j += 1 }
                return j
            }
            if c == "/", i + 1 < scalars.count, scalars[i + 1] == "*" {
                var j = i + 2
                while j + 1 < scalars.count, !(scalars[j] == "*" && scalars[j + 1] == "/") { j += 1 }
                return min(j + 2, scalars.count)
            }
            return nil
        }
        func isWordScalar(_ s: Unicode.Scalar) -> Bool { s.properties.isAlphabetic || s.properties.numericType != nil || s == "_" || s == "$" }
        while i < scalars.count {
            if let next = skipQuoted(i) { i = next; continue }
            let startsWord = !(i > 0 && isWordScalar(scalars[i - 1]))
            guard startsWord, i + 5 <= scalars.count,
                  String(String.UnicodeScalarView(scalars[i..<(i + 5)])).uppercased() == "CHECK",
                  i + 5 == scalars.count || !isWordScalar(scalars[i + 5]) else {
                i += 1
                continue
            }
            var j = i + 5
            while j < scalars.count, scalars[j].properties.isWhitespace { j += 1 }
            guard j < scalars.count, scalars[j] == "(" else { i = j; continue }
            // The expression: up to the parenthesis closing this one.
            var depth = 0
            var text = String.UnicodeScalarView()
            var k = j
            while k < scalars.count {
                if let next = skipQuoted(k) {
                    // A string or quoted name is part of the expression; a comment is not.
                    let isComment = scalars[k] == "-" || scalars[k] == "/"
                    if isComment { text.append(" ") } else { text.append(contentsOf: scalars[k..<next]) }
                    k = next
                    continue
                }
                if scalars[k] == "(" { depth += 1 }
                if scalars[k] == ")" {
                    depth -= 1
                    if depth == 0 { break }
                }
                if k > j { text.append(scalars[k]) }
                k += 1
            }
            let words = String(text).split(whereSeparator: { $0.isWhitespace })
            if !words.isEmpty { found.append(words.joined(separator: " ")) }
            i = k + 1
        }
        return found
    }
}

extension TableInfo {
    /// The text of each `CHECK` constraint of the table, column or table
    /// level, in the order the `CREATE TABLE` gives them (`n > 0`,
    /// `s IN ('on', 'off')`): what SQLite refuses besides types, NOT NULL and keys.
    public var checkConstraints: [String] { CreateTableSQL.checkExpressions(sql) }
}
