/// Reads the list of a `CHECK (col IN (…))` out of the definition PostgreSQL
/// gives back for it (`pg_get_constraintdef`), which rewrites the list as
/// `CHECK ((status = ANY (ARRAY['draft'::text, 'sent'::text])))`, or for a
/// varchar `((status)::text = ANY ((ARRAY['a'::character varying])::text[]))`.
/// Any other check (a range, `NOT IN`, an expression) gives nil: it is left
/// to the server, and no choice is guessed from it.
enum PostgresCheckList {
    static func values(_ definition: String) -> [String]? {
        guard !definition.contains("<> ALL"), let any = definition.firstRange(of: "= ANY ("),
              let array = definition[any.upperBound...].firstRange(of: "ARRAY[") else { return nil }
        var values: [String] = []
        var current = ""
        var quoted: String?
        var inQuote = false
        var index = array.upperBound
        while index < definition.endIndex {
            let char = definition[index]
            index = definition.index(after: index)
            if inQuote {
                if char == "'" {
                    if index < definition.endIndex, definition[index] == "'" {
                        current.append("'")
                        index = definition.index(after: index)
                    } else {
                        inQuote = false
                        quoted = current
                    }
                } else {
                    current.append(char)
                }
                continue
            }
            switch char {
            case "'":
                inQuote = true
                current = ""
            case ",", "]":
                guard let value = quoted ?? literal(current) else { return nil }
                values.append(value)
                current = ""
                quoted = nil
                if char == "]" { return values }
            default:
                current.append(char)
            }
        }
        return nil
    }

    /// An unquoted element: a number, perhaps in parentheses or with a cast (`(- 1)`, `2::smallint`).
    private static func literal(_ text: String) -> String? {
        var text = text
        if let cast = text.firstRange(of: "::") { text = String(text[..<cast.lowerBound]) }
        text = text.filter { $0 != "(" && $0 != ")" && $0 != " " }
        guard !text.isEmpty, Double(text) != nil else { return nil }
        return text
    }
}
