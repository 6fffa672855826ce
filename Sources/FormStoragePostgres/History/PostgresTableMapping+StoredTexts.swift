import FormCore
import FormStorage

/// The columns' text as the server returned it, which history keeps.
extension PostgresTableMapping {
    /// One row of a result of `columns`, by column: its text (nil for NULL).
    /// A JSON path's field has its member's JSON text too (`pathMemberTexts`):
    /// a save through one was recorded in no history, since no column bears
    /// the field's name.
    func storedTexts(_ result: PostgresResult, row: Int) -> [String: String?] {
        var texts: [String: String?] = [:]
        for (index, column) in columns.enumerated() { texts[column] = result.text(row: row, column: index) }
        guard !jsonPaths.isEmpty else { return texts }
        return texts.merging(pathMemberTexts(texts)) { column, _ in column }
    }
}
