/// One token of SQL text, as far as table introspection needs: enough to
/// skip comments and literals and to recognise quoted names.
enum SQLToken: Hashable {
    /// An unquoted word: a keyword or a bare identifier.
    case word(String)
    /// A quoted identifier (`"a b"`, `` `a b` ``, `[a b]`), unescaped.
    case quoted(String)
    /// A string literal (`'it''s'`), unescaped.
    case string(String)
    case number(String)
    case symbol(Character)

    /// True for an unquoted word equal to `keyword`, ignoring case.
    func isKeyword(_ keyword: String) -> Bool {
        if case .word(let w) = self { return w.uppercased() == keyword }
        return false
    }

    /// The identifier this token names, quoted or not.
    var identifier: String? {
        switch self {
        case .word(let w): return w
        case .quoted(let q): return q
        default: return nil
        }
    }

    /// Splits SQL into tokens, dropping whitespace and comments.
    static func tokenize(_ sql: String) -> [SQLToken] { spans(sql).tokens }

    /// `tokenize`, with where each token lies in `chars` (the SQL's characters):
    /// an expression's text as written is read back from them.
    static func spans(_ sql: String) -> (tokens: [SQLToken], spans: [Range<Int>], chars: [Character]) {
        let chars = Array(sql)
        var tokens: [SQLToken] = []
        var spans: [Range<Int>] = []
        var i = 0

        /// Reads up to `close`, where a doubled `close` stands for one.
        func quoted(until close: Character, doubling: Bool) -> String {
            var text = ""
            i += 1
            while i < chars.count {
                if chars[i] == close {
                    if doubling, i + 1 < chars.count, chars[i + 1] == close {
                        text.append(close)
                        i += 2
                        continue
                    }
                    i += 1
                    return text
                }
                text.append(chars[i])
                i += 1
            }
            return text
        }

        while i < chars.count {
            let start = i
            defer { if spans.count < tokens.count { spans.append(start..<i) } }
            let c = chars[i]
            let next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
            if c.isWhitespace {
                i += 1
            } else if c == "-" && next == "-" {
                while i < chars.count && chars[i] != "\n" { i += 1 }
            } else if c == "/" && next == "*" {
                i += 2
                while i < chars.count && !(chars[i] == "*" && i + 1 < chars.count && chars[i + 1] == "/") { i += 1 }
                i += 2
            } else if c == "'" {
                tokens.append(.string(quoted(until: "'", doubling: true)))
            } else if c == "\"" {
                tokens.append(.quoted(quoted(until: "\"", doubling: true)))
            } else if c == "`" {
                tokens.append(.quoted(quoted(until: "`", doubling: true)))
            } else if c == "[" {
                tokens.append(.quoted(quoted(until: "]", doubling: false)))
            } else if c.isNumber || (c == "." && next?.isNumber == true) {
                var text = ""
                while i < chars.count {
                    let d = chars[i]
                    let isExponentSign = (d == "+" || d == "-") && (text.last == "e" || text.last == "E")
                        && !text.lowercased().hasPrefix("0x")
                    guard d.isNumber || d.isLetter || d == "." || d == "_" || isExponentSign else { break }
                    text.append(d)
                    i += 1
                }
                tokens.append(.number(text))
            } else if c.isLetter || c == "_" || c == "$" || !c.isASCII {
                var text = ""
                while i < chars.count, chars[i].isLetter || chars[i].isNumber || chars[i] == "_"
                    || chars[i] == "$" || (!chars[i].isASCII && !chars[i].isWhitespace) {
                    text.append(chars[i])
                    i += 1
                }
                tokens.append(.word(text))
            } else {
                tokens.append(.symbol(c))
                i += 1
            }
        }
        return (tokens, spans, chars)
    }
}
