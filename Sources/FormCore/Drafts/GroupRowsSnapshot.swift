/// One repeating group's rows in a session at one moment: now, as loaded,
/// and the cells typed that did not parse. A value, so it can be kept off the
/// session's thread and a draft made from it there (`FormSession.groupRows(_:)`).
public struct GroupRowsSnapshot: Sendable, Hashable {
    /// The rows now, in order.
    public var rows: [GroupRow]
    /// The rows as loaded or last saved.
    public var loaded: [GroupRow]
    /// Cells typed that did not parse, by row id then field key.
    public var inputs: [String: [String: String]]

    public init(rows: [GroupRow], loaded: [GroupRow], inputs: [String: [String: String]] = [:]) {
        self.rows = rows
        self.loaded = loaded
        self.inputs = inputs
    }

    /// The rows as a draft keeps them: a stored row with the values that
    /// changed since it was loaded, a new row with all of its values, each
    /// with what was typed that did not parse; secure fields left out.
    public func draft(of group: RowGroup) -> DraftGroup {
        let secure = Set(group.fields.filter(\.isSecure).map(\.key))
        let loadedByID = Dictionary(loaded.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let rows = rows.map { row -> DraftRow in
            var values = row.values.filter { !secure.contains($0.key) }
            if let old = loadedByID[row.id], row.key != nil {
                values = values.filter { old[$0.key] != $0.value }
            }
            let raw = (inputs[row.id] ?? [:]).filter { !secure.contains($0.key) }
            return DraftRow(key: row.key, values: values, inputs: raw)
        }
        return DraftGroup(rows: rows, base: loaded.map { $0.values.filter { !secure.contains($0.key) } })
    }
}
