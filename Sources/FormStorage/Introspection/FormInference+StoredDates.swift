import FormCore

/// Inference that reads a table's values, not only its schema: a date
/// column's layout, which its declared type does not tell.
extension FormInference {
    /// `form` with each date field whose column holds a value a date field
    /// would not keep as it is (`isKeptOnlyAsText`, in its first 20 values)
    /// made a text field, as docs/fidelity.md reads such values: typed in
    /// its own layout, a date was refused, one typed as `2024-05-03` was
    /// written in another layout than the column's, and time finer than a
    /// microsecond was cut off, so a change within it was no change. A
    /// group's row fields are read in their own table.
    static func readingDatesAsStored(_ form: Form, _ conn: Connection) throws -> Form {
        try readingDates(form) { group, key in try storedValues(of: key, in: group?.tableName ?? form.tableName, conn) }
    }

    /// `readingDatesAsStored` for an import into a column that holds no
    /// value yet: the field reads the values the import brings
    /// (`incoming(group, key)`, the first rows' values that are not NULL),
    /// as it would once they were stored.
    static func readingDatesAsIncoming(_ form: Form, _ conn: Connection,
                                       _ incoming: (RowGroup?, String) throws -> [DatabaseValue]) throws -> Form {
        try readingDates(form) { group, key in
            try storedValues(of: key, in: group?.tableName ?? form.tableName, conn).isEmpty ? incoming(group, key) : []
        }
    }

    /// `form` with each date field, its groups' too, made a text field where
    /// `values(group, key)` holds a value only a text field keeps.
    private static func readingDates(_ form: Form, _ values: (RowGroup?, String) throws -> [DatabaseValue]) rethrows -> Form {
        var form = form
        func asStored(_ field: inout Field, in group: RowGroup?) throws {
            guard field.kind.isDateLike, try values(group, field.key).contains(where: isKeptOnlyAsText) else { return }
            field.kind = .text
            // Its date's format (`yyyy-MM-dd`) is no longer how it is typed: the editor said so of slash dates.
            field.format = nil
            field.hint = "values FormStore does not read as dates, or finer than a microsecond: edited as text, as stored"
        }
        for s in form.sections.indices {
            if let group = form.sections[s].group {
                var fields = group.fields
                for f in fields.indices { try asStored(&fields[f], in: group) }
                form.sections[s].group?.fields = fields
            } else {
                for f in form.sections[s].fields.indices { try asStored(&form.sections[s].fields[f], in: nil) }
            }
        }
        return form
    }

    /// A date column's stored value that only a text field keeps as it is:
    /// text in no layout FormStore reads (`03/05/2024`, March or May by
    /// country; `unknown` among dates), or with a fraction of a second
    /// finer than the microsecond a date holds (`.1234567`, .NET's ticks).
    /// Empty text is no layout (a column declared `DEFAULT ''`), and a number
    /// is an epoch or a Julian day, read or refused as one.
    static func isKeptOnlyAsText(_ value: DatabaseValue) -> Bool {
        guard case .text(let text) = value, !text.isEmpty else { return false }
        guard case .text(let layout)? = DateStorageFormat.detect(value) else { return true }
        return layout.fractionDigits > 6
    }

    /// 20 values of `column` in `table` (an inferred form's, which is
    /// there), NULL left out, from the ends of the table (`Connection.sampleValues`).
    private static func storedValues(of column: String, in table: String, _ conn: Connection) throws -> [DatabaseValue] {
        try conn.sampleValues(of: column, in: table, limit: 20)
    }
}
