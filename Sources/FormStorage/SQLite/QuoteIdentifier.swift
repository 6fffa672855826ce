import Foundation

/// Quotes an SQL identifier (a table, column or savepoint name) with double
/// quotes, doubling any inside, so names with spaces, quotes or keywords work.
///
/// ```swift
/// quoteIdentifier("order")       // "order"  (with the quotes)
/// quoteIdentifier(#"a "b" c"#)   // "a ""b"" c"
/// ```
///
/// Values are never spliced into SQL: bind them. See <https://www.sqlite.org/lang_keywords.html>.
public func quoteIdentifier(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
