import FormBasics
public import FormCore
import FoundationEssentials

/// The table a form needs, as a `CREATE TABLE` statement to start a migration
/// with (`formstore form NAME --format sql`).
///
/// ```swift
/// print(try profileForm.createTableSQL())
/// // CREATE TABLE "profile" (
/// //     "id" INTEGER PRIMARY KEY,
/// //     "firstName" TEXT NOT NULL,
/// //     "plan" TEXT CHECK ("plan" IN ('free', 'pro')) DEFAULT 'free',
/// //     …
/// // );
/// ```
///
/// | kind | column |
/// | --- | --- |
/// | `integer`, `bool` | INTEGER (`bool`: CHECK … IN (0, 1)) |
/// | `decimal` | REAL |
/// | `date`, `time`, `datetime` | DATE, TIME, DATETIME (text in the layout `StorageCoding` writes for them) |
/// | `choice` | INTEGER when every choice is an integer, else TEXT; CHECK … IN (the choices' values) |
/// | `multichoice` and text kinds | TEXT (`multichoice`: a JSON array) |
///
/// A required field is NOT NULL unless a condition can hide it (a hidden field
/// stores nothing); a default becomes DEFAULT, in the form a save would write.
/// Key columns that are no field are INTEGER; a form naming no key gets
/// `id INTEGER PRIMARY KEY`. Display-only and unstored fields have no column.
extension Form {
    /// - throws: `FormDefinitionError` when the form's definition has a mistake.
    public func createTableSQL() throws -> String {
        try checkDefinition()
        let keys = primaryKey.isEmpty ? ["id"] : primaryKey
        var lines: [String] = []
        for key in keys where field(key) == nil {
            lines.append(quoteIdentifier(key) + " INTEGER" + (keys.count == 1 ? " PRIMARY KEY" : " NOT NULL"))
        }
        for field in fields where field.isStored && field.holdsValue {
            lines.append(columnDefinition(field, isSoleKey: keys == [field.key]))
        }
        if let versionColumn, field(versionColumn) == nil {
            lines.append(quoteIdentifier(versionColumn) + " INTEGER NOT NULL DEFAULT 0")
        }
        if keys.count > 1 {
            lines.append("PRIMARY KEY (" + keys.map(quoteIdentifier).joined(separator: ", ") + ")")
        }
        return "CREATE TABLE " + quoteIdentifier(tableName) + " (\n"
            + lines.map { "    " + $0 }.joined(separator: ",\n") + "\n);\n"
    }

    private func columnDefinition(_ field: Field, isSoleKey: Bool) -> String {
        let name = quoteIdentifier(field.key)
        let type = Self.columnType(field)
        var definition = name + " " + type
        if isSoleKey { definition += " PRIMARY KEY" }
        if ((field.isRequired || field.isNotNull) && field.hiddenWhen == nil) || (isSoleKey && type != "INTEGER") { definition += " NOT NULL" }
        let coding = StorageCoding(kind: field.kind, dateFormat: DateStorageFormat.default(kind: field.kind, declaredType: type))
        var allowed: [DatabaseValue] = []
        switch field.kind {
        case .bool: allowed = [.integer(0), .integer(1)]
        case .choice: allowed = field.choices.map { coding.encode($0.value) }
        default: break
        }
        if !allowed.isEmpty {
            definition += " CHECK (\(name) IN (" + allowed.map(Self.literal).joined(separator: ", ") + "))"
        }
        if field.defaultValue != .null {
            definition += " DEFAULT " + Self.literal(coding.encode(field.defaultValue))
        }
        return definition
    }

    private static func columnType(_ field: Field) -> String {
        switch field.kind {
        case .integer, .bool: return "INTEGER"
        case .decimal: return "REAL"
        case .date: return "DATE"
        case .time: return "TIME"
        case .datetime: return "DATETIME"
        case .choice:
            let integers = !field.choices.isEmpty && field.choices.allSatisfy { if case .int = $0.value { true } else { false } }
            return integers ? "INTEGER" : "TEXT"
        default: return "TEXT"
        }
    }

    /// A value as an SQL literal: only for DDL, where nothing can be bound.
    static func literal(_ value: DatabaseValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let i): return String(i)
        case .real(let d):
            let text = String(d)
            return text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? text : text + ".0"
        case .text(let s): return "'" + s.replacing("'", with: "''") + "'"
        case .blob(let d): return "X'" + d.hexadecimal(uppercase: true) + "'"
        }
    }
}
