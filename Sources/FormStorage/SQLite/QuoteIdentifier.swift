import FoundationEssentials

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
    // Most names hold no quote: skip Foundation's replace, which is slow on Linux.
    guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
    return "\"" + name.replacing("\"", with: "\"\"") + "\""
}

/// A column quoted and compared by `collation` (`"code" COLLATE "NOCASE"`);
/// quoted alone for `BINARY`, SQLite's default.
func collated(_ column: String, by collation: String) -> String {
    quoteIdentifier(column) + (collation.uppercased() == "BINARY" ? "" : " COLLATE \(quoteIdentifier(collation))")
}
