import FormBasics
import FoundationEssentials
public import FormCore

/// A form for a table or view that has no spec, inferred from its columns: the
/// declared type gives the kind, NOT NULL makes a field required, a
/// `CHECK (col IN ...)` list gives choices, the primary key is read-only once
/// stored (and required on a new record unless SQLite assigns it), a foreign
/// key is named in the hint, a BLOB is read-only (shown by its size), a
/// generated column and the columns of a view without `INSTEAD OF` triggers
/// are read-only. A column named '' is left out.
///
/// An inferred form enforces only what the schema enforces (docs/fidelity.md):
/// text is kept as typed (no trimming), and no kind is guessed from a column's
/// name that could refuse a value (an `email` column is text, with a hint).
///
/// ```swift
/// let form = FormInference.form(for: try conn.tableInfo("orders"))
/// ```
public enum FormInference {
    public static func form(for table: TableInfo) -> Form {
        var fields: [Field] = []
        // A column named '' can be no field (a field is named by its key): it
        // is left out, as the form never reads or writes it.
        for column in table.columns where !column.name.isEmpty {
            fields.append(field(for: column, in: table))
        }
        var key = table.primaryKey.columns
        // The hidden rowid, by a name no column has taken (a table without one has no key).
        if table.primaryKey == .hiddenRowID, let name = table.rowIDName {
            var rowID = Field(key: name, label: name, kind: .integer)
            rowID.isReadOnly = true
            fields.insert(rowID, at: 0)
            key = [name]
        }
        var form = Form(name: table.name, title: table.name, sections: [Section(fields: fields)])
        form.table = table.name
        form.primaryKey = key
        form.mode = .save
        return form
    }

    static func field(for column: ColumnInfo, in table: TableInfo) -> Field {
        let type = column.declaredType.uppercased()
        var field = Field(key: column.name, label: column.name, kind: kind(for: column, type: type))
        // Core Data keeps a date as REAL seconds since 2001-01-01, which read as a Unix epoch is
        // 31 years early, and a date written back so, 31 years late to the app: the number, as it is.
        if field.kind.isDateLike, column.affinity != .text, table.isCoreData {
            field.kind = .decimal
            field.hint = "Core Data date: seconds since 2001-01-01 00:00 UTC"
        }
        if let allowed = column.allowedValues {
            let coding = StorageCoding.kindless
            field.choices = allowed.map { Choice(coding.decode($0)) }
            field.rules.append(.oneOfChoices)
        }
        if field.kind == .password { field.isSecure = true }
        field.keepsWhitespace = true
        // Dates are typed and shown as the database holds them, not in a locale's order.
        if field.kind == .date { field.format = "yyyy-MM-dd" }
        if field.kind == .text && column.name.lowercased().containsUTF8("email") { field.hint = "e-mail address" }
        // SQLite lets a key that is not the rowid hold NULL (a legacy quirk); a form asks for it.
        let needsKey = column.isPrimaryKey && !table.primaryKey.isRowID
        // The schema refuses NULL and nothing else: '' and 0 are values (docs/fidelity.md).
        field.isNotNull = (column.isNotNull || needsKey) && column.defaultValueSQL == nil
            && !(table.primaryKey.isRowID && column.isPrimaryKey) && !column.isGenerated
        // A default the field cannot hold as its kind (a DATE's '01/02/2000') is left to SQLite, which fills it in.
        if let literal = column.defaultValueSQL, let value = defaultValue(literal, kind: field.kind),
           isValue(value, of: field.kind) {
            field.defaultValue = value
        }
        if column.isPrimaryKey { field.isReadOnly = true }
        if type.containsUTF8("BLOB") {
            // Bytes are typed in hex (x'CAFE'), or given as a file where the front end allows.
            field.transforms = [.hex]
            field.hint = "binary data, typed in hex as x'CAFE'"
        }
        if column.affinity == .blob && !type.containsUTF8("BLOB") {
            // A column of no type (or ANY) may hold bytes, shown `x'0102'`: typed so, they are bytes again.
            field.transforms = [.blobLiteral]
        }
        if column.isGenerated {
            field.isReadOnly = true
            field.hint = "generated column: computed by SQLite"
        }
        if table.kind == .view {
            field.isReadOnly = true
            field.isNotNull = false
        }
        if let reference = table.foreignKeys.first(where: { $0.columns.contains(column.name) }),
           let index = reference.columns.firstIndex(of: column.name) {
            let target = index < reference.destinationColumns.count ? reference.destinationColumns[index] : "rowid"
            field.hint = "references \(reference.destinationTable).\(target)"
        }
        return field
    }

    /// A column named like a password or a secret: masked in an inferred form,
    /// and never a picker's inferred label.
    static func looksSecret(_ name: String) -> Bool {
        let name = name.lowercased()
        return name.containsUTF8("password") || name.containsUTF8("secret")
    }

    static func kind(for column: ColumnInfo, type: String) -> FieldKind {
        if column.allowedValues != nil { return .choice }
        if looksSecret(column.name) { return .password }
        if type.containsUTF8("BOOL") { return .bool }
        if type.containsUTF8("DATETIME") || type.containsUTF8("TIMESTAMP") { return .datetime }
        if type.containsUTF8("DATE") { return .date }
        if type.containsUTF8("TIME") { return .time }
        if column.isUntyped { return .text }
        switch column.affinity {
        case .integer: return .integer
        case .real, .numeric: return .decimal
        default: return .text
        }
    }

    /// The model value of a column's DEFAULT when it is a plain literal;
    /// expressions such as CURRENT_TIMESTAMP are left to SQLite.
    /// Whether `value`, a default decoded for `kind`, is one of the kind's
    /// values: text left as it was stored is not a date, a bool or a number.
    private static func isValue(_ value: FieldValue, of kind: FieldKind) -> Bool {
        guard case .text = value else { return true }
        switch kind {
        case .date, .time, .datetime, .bool, .integer, .decimal: return false
        default: return true
        }
    }

    static func defaultValue(_ sql: String, kind: FieldKind) -> FieldValue? {
        var text = sql.trimmingSpaces()
        while text.hasPrefix("(") && text.hasSuffix(")") { text = String(text.dropFirst().dropLast()) }
        if text.uppercased() == "NULL" { return .null }
        if text.count >= 2, text.hasPrefix("'"), text.hasSuffix("'") {
            let inner = String(text.dropFirst().dropLast()).replacing("''", with: "'")
            return StorageCoding(kind: kind).decode(.text(inner))
        }
        if let integer = Int64(text) { return StorageCoding(kind: kind).decode(.integer(integer)) }
        if let real = Double(text) { return StorageCoding(kind: kind).decode(.real(real)) }
        return nil
    }
}
