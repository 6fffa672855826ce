public import FormCore
import FormStorage

extension PostgresFormInference {
    /// The form of `table` with a repeating group for each table whose one
    /// foreign key to it covers its key (`--children` of an inferred form), as
    /// `FormInference.form(for:including:)` makes them on SQLite: the group
    /// is named after the child table, its fields are the child's columns but
    /// the foreign key, its rows keyed by the child's primary key.
    ///
    /// `children` are the referring tables with their constraints; a table
    /// with two foreign keys to `table` is left out (which one is meant is a
    /// spec's to say, with `"foreignKey"`).
    public static func form(for table: PostgresTable, constraints: PostgresConstraints,
                            children: [(table: PostgresTable, constraints: PostgresConstraints)]) -> Form {
        var form = form(for: table, constraints: constraints)
        let parentKey = form.primaryKey
        var taken = Set(form.fields.map(\.key))
        for child in children {
            let referring = child.constraints.foreignKeys.filter { $0.refers(to: table.name) }
            guard referring.count == 1, let key = referring.first, !parentKey.isEmpty else { continue }
            let targets = key.destinationColumns.isEmpty ? parentKey : key.destinationColumns
            let foreignKey = parentKey.compactMap { column in targets.firstIndex(of: column).map { key.columns[$0] } }
            guard foreignKey.count == parentKey.count else { continue }
            let inferred = Self.form(for: child.table, constraints: child.constraints)
            var group = RowGroup(key: FormInference.groupKey(for: child.table.name, taken: &taken),
                                 fields: inferred.fields.filter { !foreignKey.contains($0.key) })
            group.table = child.table.name
            group.foreignKey = foreignKey
            group.keyFields = inferred.primaryKey
            form.sections.append(Section(child.table.name, group: group))
        }
        return form
    }
}
