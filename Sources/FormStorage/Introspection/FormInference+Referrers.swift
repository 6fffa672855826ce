import FormBasics
public import FormCore

extension FormInference {
    /// The inferred form of `table` with a repeating group for each table in
    /// `tables` whose one foreign key refers to it (an employee's reports
    /// through `manager_id` too), named by that table; the group's fields are
    /// the referring table's inferred fields but its foreign-key columns.
    /// A table with several foreign keys to `table` is left out: which one
    /// makes a row a child is a spec's to say.
    ///
    /// ```swift
    /// let form = FormInference.form(for: invoice, including: try conn.tableNames().map(conn.tableInfo))
    /// form.groups.map(\.key)   // ["invoice_line"]
    /// ```
    public static func form(for table: TableInfo, including tables: [TableInfo]) -> Form {
        var form = form(for: table)
        let parentKey = form.primaryKey
        var taken = Set(form.fields.map(\.key))
        for other in tables where !other.isView {
            let referring = other.foreignKeys.filter { $0.destinationTable.equalsIgnoringCase(table.name) }
            guard referring.count == 1, let key = referring.first else { continue }
            let targets = key.destinationColumns.isEmpty ? parentKey : key.destinationColumns
            let foreignKey = parentKey.compactMap { column in targets.firstIndex(of: column).map { key.columns[$0] } }
            guard foreignKey.count == parentKey.count, !parentKey.isEmpty else { continue }
            let child = Self.form(for: other)
            var group = RowGroup(key: groupKey(for: other.name, taken: &taken), fields: child.fields.filter { !foreignKey.contains($0.key) })
            group.table = other.name
            group.foreignKey = foreignKey
            group.keyFields = child.primaryKey
            form.sections.append(Section(other.name, group: group))
        }
        return form
    }

    /// The key of a child table's group: the table's name, or, where a field
    /// of the parent has it (an `artist` with an `album` column and an
    /// `album` table), `album_rows` (`album_rows2` …). Such a table was left
    /// out of `--children` without a word.
    public static func groupKey(for table: String, taken: inout Set<String>) -> String {
        var key = table
        var number = 1
        while taken.contains(key) {
            key = table + "_rows" + (number == 1 ? "" : String(number))
            number += 1
        }
        taken.insert(key)
        return key
    }

    /// `childTablesLeftOut(of:)`'s words for a table referring to the parent
    /// by each of `keys` (their columns): `friendship (by a; by b)`, or
    /// nil for a table referring by one key, which is a group.
    public static func leftOutChild(_ table: String, keys: [[String]]) -> String? {
        guard keys.count > 1 else { return nil }
        return "\(table) (\(keys.map { "by " + $0.joined(separator: ", ") }.sorted().joined(separator: "; ")))"
    }
}
