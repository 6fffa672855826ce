public import FormCore
import FoundationEssentials

/// A form for a PostgreSQL table that has no spec, inferred from `pg_catalog`
/// as `FormInference` infers one from SQLite's schema: the column's type gives
/// the kind, an enum's labels or a `CHECK (col IN (…))` list give choices,
/// NOT NULL without a default makes a field required, a key, an identity or
/// serial column and a generated column are not required and are read-only,
/// and a foreign key is named in the hint.
///
/// An inferred form enforces only what the schema enforces (docs/fidelity.md):
/// text is kept as typed, and no kind is guessed from a column's name that
/// could refuse a value.
///
/// ```swift
/// let form = try store.inferredForm(table: "orders")
/// ```
public enum PostgresFormInference {
    public static func form(for table: PostgresTable, constraints: PostgresConstraints) -> Form {
        let fields = table.columns.map { field(for: $0, in: table, constraints: constraints) }
        var form = Form(name: table.name, title: table.name, sections: [Section(fields: fields)])
        form.table = table.name
        form.primaryKey = table.primaryKey
        form.mode = .save
        return form
    }

    static func field(for column: PostgresColumn, in table: PostgresTable, constraints: PostgresConstraints) -> Field {
        let family = PostgresTypeFamily(typeName: column.typeName)
        let allowed = column.isArray ? nil : constraints.allowedValues[column.name]
        var field = Field(key: column.name, label: column.name,
                          kind: allowed == nil ? kind(for: column, family: family) : .choice)
        let coding = PostgresCoding(kind: field.kind, column: column)
        if column.isEnum {
            field.choices = column.enumLabels.map { Choice(.text($0)) }
            field.rules.append(.oneOfChoices)
        } else if let allowed {
            field.choices = allowed.map { Choice(coding.decode($0)) }
            field.rules.append(.oneOfChoices)
        }
        if field.kind == .password { field.isSecure = true }
        field.keepsWhitespace = true
        if field.kind == .date { field.format = "yyyy-MM-dd" }
        if field.kind == .text && column.name.lowercased().contains("email") { field.hint = "e-mail address" }
        switch column.typeName {
        case "uuid": field.hint = "UUID"
        case "json", "jsonb": field.hint = "JSON"
        case "money": field.hint = "money, as the server writes it: $12.34"
        case _ where column.isArray:
            field.hint = "PostgreSQL array, written as the server writes it: {a,\"b c\",NULL}"
        case "bytea":
            // Bytes are typed in hex (x'CAFE'), as for a SQLite BLOB.
            field.transforms = [.hex]
            field.hint = "binary data, typed in hex as x'CAFE'"
        default: break
        }
        let isSerial = column.defaultSQL?.hasPrefix("nextval(") == true
        // The schema refuses NULL and nothing else: '' and false are values (docs/fidelity.md).
        field.isNotNull = column.isNotNull && !column.hasDefault
        if let sql = column.defaultSQL, !isSerial, let value = defaultValue(sql, coding: coding) {
            field.defaultValue = value
        }
        // A key is never changed here; an identity the server always fills in
        // takes no value at all. A `BY DEFAULT` identity and a serial take one
        // (an import copying rows gives it), so they are read-only only as a key.
        if table.primaryKey.contains(column.name) || column.isAlwaysIdentity {
            field.isReadOnly = true
        }
        if column.isAlwaysIdentity { field.hint = "identity: filled in by PostgreSQL (GENERATED ALWAYS)" }
        if column.isGenerated {
            field.isReadOnly = true
            field.hint = "generated column: computed by PostgreSQL"
        }
        if let reference = constraints.foreignKeys.first(where: { $0.columns.contains(column.name) }),
           let index = reference.columns.firstIndex(of: column.name), index < reference.destinationColumns.count {
            field.hint = "references \(reference.shownDestination).\(reference.destinationColumns[index])"
        }
        return field
    }

    static func kind(for column: PostgresColumn, family: PostgresTypeFamily) -> FieldKind {
        // An array is its literal, shown and typed as the server writes it:
        // elements may hold commas, repeat, be NULL or empty, which a
        // multichoice (a set of labels) cannot say. A spec may still make one a multichoice.
        if column.isArray { return .text }
        if column.isEnum { return .choice }
        // Money is shown and typed with its currency sign (`$12.34`), which no number field reads.
        if column.typeName == "money" { return .text }
        let name = column.name.lowercased()
        switch family {
        case .bool: return .bool
        case .integer: return .integer
        case .float, .numeric: return .decimal
        case .date: return .date
        case .time: return .time
        case .timestamp: return .datetime
        case .json: return .multiline
        case .bytea: return .text
        case .text:
            if name.contains("password") || name.contains("secret") { return .password }
            return .text
        }
    }

    /// The model value of a column's DEFAULT when it is a plain literal
    /// (`'draft'::text`, `0`, `true`); expressions such as `now()` are left to the server.
    static func defaultValue(_ sql: String, coding: PostgresCoding) -> FieldValue? {
        var text = sql
        if text.hasPrefix("'") {
            let body: Substring?
            if let cast = text.ranges(of: "'::").last {
                body = text[text.index(after: text.startIndex)..<cast.lowerBound]
            } else {
                body = text.count >= 2 && text.hasSuffix("'") ? text.dropFirst().dropLast() : nil
            }
            return body.map { coding.decode(String($0).replacing("''", with: "'")) }
        }
        if let cast = text.firstRange(of: "::") { text = String(text[..<cast.lowerBound]) }
        text = text.filter { $0 != "(" && $0 != ")" }
        if text == "true" { return coding.decode("t") }
        if text == "false" { return coding.decode("f") }
        if Double(text) != nil { return coding.decode(text) }
        return nil
    }
}
