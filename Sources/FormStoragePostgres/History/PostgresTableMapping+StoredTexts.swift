/// The columns' text as the server returned it, which history keeps.
extension PostgresTableMapping {
    /// One row of a result of `columns`, by column: its text (nil for NULL).
    func storedTexts(_ result: PostgresResult, row: Int) -> [String: String?] {
        var texts: [String: String?] = [:]
        for (index, column) in columns.enumerated() { texts[column] = result.text(row: row, column: index) }
        return texts
    }
}
