import FormCore

/// Inference that reads a table's values, not only its schema: a date
/// column's layout, which its declared type does not tell.
extension FormInference {
    /// `form` with each date field whose column holds a value a date field
    /// would not keep as it is (`isKeptOnlyAsText`, in its first 20 values)
    /// made a text field, as docs/fidelity.md reads such values: typed in
    /// its own layout, a date was refused, one typed as `2024-05-03` was
    /// written in another layout than the column's, and time finer than a
    /// microsecond was cut off, so a change within it was no change.
    static func readingDatesAsStored(_ form: Form, _ conn: Connection) throws -> Form {
        try readingDates(form) { key in try storedValues(of: key, in: form, conn) }
    }

    /// `readingDatesAsStored` for an import into a column that holds no
    /// value yet: the field reads the values the import brings
    /// (`incoming(key)`, the first rows'), as it would once they were stored.
    static func readingDatesAsIncoming(_ form: Form, _ conn: Connection,
                                       _ incoming: (String) throws -> [DatabaseValue]) throws -> Form {
        try readingDates(form) { key in try storedValues(of: key, in: form, conn).isEmpty ? incoming(key) : [] }
    }

    /// `form` with each date field made a text field where `values(key)`
    /// holds a value only a text field keeps.
    private static func readingDates(_ form: Form, _ values: (String) throws -> [DatabaseValue]) rethrows -> Form {
        var form = form
        for s in form.sections.indices where form.sections[s].group == nil {
            for f in form.sections[s].fields.indices where form.sections[s].fields[f].kind.isDateLike {
                guard try values(form.sections[s].fields[f].key).contains(where: isKeptOnlyAsText) else { continue }
                form.sections[s].fields[f].kind = .text
                form.sections[s].fields[f].hint = "values FormStore does not read as dates, or finer than a "
                    + "microsecond: edited as text, as stored"
            }
        }
        return form
    }

    /// The first 20 values the column of the field with `key` holds, NULL left out.
    private static func storedValues(of key: String, in form: Form, _ conn: Connection) throws -> [DatabaseValue] {
        let column = quoteIdentifier(key)
        return try conn.fetchAll("SELECT \(column) FROM \(quoteIdentifier(form.tableName)) "
            + "WHERE \(column) IS NOT NULL LIMIT 20").map { $0[0] as DatabaseValue }
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
}
