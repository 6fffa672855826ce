import FormCore

/// Inference that reads a table's values, not only its schema: a date
/// column's layout, which its declared type does not tell.
extension FormInference {
    /// `form` with each date field whose column holds no date FormStore
    /// reads (`DateStorageFormat.detect`: `03/05/2024`, March or May by
    /// country, in its first 20 values) made a text field, as
    /// docs/fidelity.md reads such values: typed in its own layout, a date
    /// was refused, and one typed as `2024-05-03` was written in another
    /// layout than the column's.
    static func readingDatesAsStored(_ form: Form, _ conn: Connection) throws -> Form {
        var form = form
        for s in form.sections.indices where form.sections[s].group == nil {
            for f in form.sections[s].fields.indices where form.sections[s].fields[f].kind.isDateLike {
                let column = quoteIdentifier(form.sections[s].fields[f].key)
                let values = try conn.fetchAll("SELECT \(column) FROM \(quoteIdentifier(form.tableName)) "
                    + "WHERE \(column) IS NOT NULL LIMIT 20").map { $0[0] as DatabaseValue }
                // Empty text is no layout (a column declared `DEFAULT ''`): only other text tells.
                guard values.contains(where: { if case .text(let text) = $0 { !text.isEmpty } else { false } }),
                      !values.contains(where: { DateStorageFormat.detect($0) != nil }) else { continue }
                form.sections[s].fields[f].kind = .text
                form.sections[s].fields[f].hint = "dates in a layout FormStore does not read as dates: edited as text, as stored"
            }
        }
        return form
    }
}
