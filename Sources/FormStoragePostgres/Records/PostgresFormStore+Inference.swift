public import FormCore

extension PostgresFormStore {
    /// The form inferred from a table's catalog entries (`PostgresFormInference`);
    /// nil when there is no such table.
    ///
    /// - throws: `PostgresError`.
    public func inferredForm(table name: String) throws -> Form? {
        try pool.read { conn -> Form? in
            guard let table = try conn.table(name) else { return nil }
            return PostgresFormInference.form(for: table, constraints: try conn.constraints(of: name))
        }
    }

    /// The table's CHECK constraints, each as its expression (`qty > 0`), by
    /// constraint name; none for a table that is not there.
    ///
    /// - throws: `PostgresError`.
    public func checkConstraints(of table: String) throws -> [String] {
        try pool.read { try $0.constraints(of: table).checks }
    }
}
