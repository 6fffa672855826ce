public import FoundationEssentials

/// Describes a form's stored record as a JSON Schema (draft 2020-12), for
/// tools that validate or generate records outside FormStore.
///
/// ```swift
/// let schema = JSONSchemaExporter.schema(for: form)   // pretty JSON, sorted keys
/// ```
///
/// Only stored, value-holding fields appear (a repeated password does not),
/// with the primary-key columns that are no field (as an export writes them),
/// `readOnly`. Optional fields also accept `null`, so exported rows validate;
/// a number field also empty text (a value in any column) and, for a float,
/// the names export writes a float that is no finite number by (`Infinity`);
/// a field with a `hiddenWhen` condition is never `required` (a record where it
/// is hidden holds no value for it); secure fields are `writeOnly` and not
/// `required` (an export leaves them out). A bool also accepts the 0 and 1
/// SQLite stores, a multichoice the JSON-array text it stores, a BLOB the
/// `{"$base64": "…"}` object an export writes its bytes as. A group is an
/// array of its row objects (`--children`). Dates and
/// times carry the `pattern` of the ISO 8601 text the JSON door accepts
/// (`FormSession.apply(json:)`), not `format: date-time`, whose RFC 3339
/// refuses SQLite's own `2024-05-01 13:04:05`. What a database made by
/// someone else holds is exported as it is (docs/fidelity.md), so it fits
/// too: the words a bool column may hold (`yes`, `f`), an empty date or
/// one kept as a number (Unix time, a Julian day), and in a column
/// declared with no type (`untyped`) any value at all. A date kept as text
/// in some other layout (`05/01/2024`) does not fit: the form reads it as
/// no date either, and warns.
public enum JSONSchemaExporter {
    /// ISO 8601 as `ISO8601.parse` reads it: a date, a date and time (`T` or a
    /// space, seconds, fraction and zone optional) or a time of day; the zone
    /// also as PostgreSQL writes it, in hours alone (`+00`).
    public static let dateTimePattern =
        #"^([0-9]{4}-[0-9]{2}-[0-9]{2}([Tt ][0-9]{2}:[0-9]{2}(:[0-9]{2}([.,][0-9]+)?)?([Zz]|[+-][0-9]{2}(:?[0-9]{2})?)?)?|[0-9]{2}:[0-9]{2}(:[0-9]{2}([.,][0-9]+)?)?)$"#

    /// The ISO 8601 of `dateTimePattern`, or the empty text a date column may hold.
    static let storedDatePattern = "^(" + dateTimePattern.dropFirst().dropLast() + ")?$"

    /// The words a bool column may hold, as `Transform.yesNo` reads them
    /// (any case; JSON Schema's patterns have no flag for it).
    static let boolWordPattern =
        "^ *([Yy]([Ee][Ss])?|[Tt]([Rr][Uu][Ee])?|1|[Oo][Nn]|[Nn][Oo]?|[Ff]([Aa][Ll][Ss][Ee])?|0|[Oo][Ff][Ff])? *$"

    /// - parameter untyped: the fields whose column was declared with no
    ///   type (`RecordStore.untypedColumns(of:)`): they may hold any value.
    public static func schema(for form: Form, untyped: Set<String> = []) -> Data {
        var properties: [JSONNode.Member] = []
        var required: [JSONNode] = []
        for key in form.primaryKey where form.field(key) == nil {
            properties.append(JSONNode.Member(key: key, value: .object([
                JSONNode.Member(key: "title", value: .string(key)),
                JSONNode.Member(key: "readOnly", value: .bool(true)),
            ])))
        }
        for field in form.fields where field.isStored && field.holdsValue {
            properties.append(JSONNode.Member(key: field.key, value: property(field, untyped: untyped.contains(field.key))))
            // A hidden field holds nothing, and a secure one is never read back (an export leaves it out).
            if (field.isRequired || field.isNotNull) && field.hiddenWhen == nil && !field.isSecure {
                required.append(.string(field.key))
            }
        }
        // A group's rows (`--children`, a spec's group): an array of row objects, each its key and fields.
        for group in form.groups {
            properties.append(JSONNode.Member(key: group.key, value: rows(of: group, in: form, untyped: untyped)))
        }
        var members = [
            JSONNode.Member(key: "$schema", value: .string("https://json-schema.org/draft/2020-12/schema")),
            JSONNode.Member(key: "$id", value: .string("formstore:\(form.name)")),
            JSONNode.Member(key: "title", value: .string(form.title)),
            JSONNode.Member(key: "type", value: .string("object")),
            JSONNode.Member(key: "properties", value: .object(properties)),
            JSONNode.Member(key: "additionalProperties", value: .bool(false)),
        ]
        if !required.isEmpty { members.append(JSONNode.Member(key: "required", value: .array(required))) }
        return JSONNode.object(members).serialized()
    }

    /// A group as a record holds it: an array of row objects, each with the
    /// row's key columns (read-only where they are no field) and its stored
    /// fields; none required, as a new row may leave its key to the database.
    /// `untyped` names a row field of no declared type `group.field`.
    private static func rows(of group: RowGroup, in form: Form, untyped: Set<String>) -> JSONNode {
        var properties: [JSONNode.Member] = []
        for key in group.keyFields where group.field(key) == nil {
            properties.append(JSONNode.Member(key: key, value: .object([
                JSONNode.Member(key: "title", value: .string(key)),
                JSONNode.Member(key: "readOnly", value: .bool(true)),
            ])))
        }
        for field in group.fields where field.isStored && field.holdsValue {
            properties.append(JSONNode.Member(key: field.key,
                                              value: property(field, untyped: untyped.contains("\(group.key).\(field.key)"))))
        }
        let title = form.sections.first { $0.group?.key == group.key }?.title ?? group.key
        return .object([
            JSONNode.Member(key: "title", value: .string(title)),
            JSONNode.Member(key: "type", value: .string("array")),
            JSONNode.Member(key: "items", value: .object([
                JSONNode.Member(key: "type", value: .string("object")),
                JSONNode.Member(key: "properties", value: .object(properties)),
                JSONNode.Member(key: "additionalProperties", value: .bool(false)),
            ])),
        ])
    }

    private static func property(_ field: Field, untyped: Bool) -> JSONNode {
        var members: [JSONNode.Member] = [JSONNode.Member(key: "title", value: .string(field.label))]
        func put(_ key: String, _ value: JSONNode) { members.append(JSONNode.Member(key: key, value: value)) }
        let nullable = !field.isRequired && !field.isNotNull
        func type(_ names: String...) -> JSONNode {
            let all = names + (nullable ? ["null"] : [])
            return all.count == 1 ? .string(all[0]) : .array(all.map(JSONNode.string))
        }
        let choiceValues = field.choices.filter { !$0.isDisabled }.map { FormSpec.value($0.value) }
        switch field.kind {
        case _ where untyped: break
        // Empty text is a value in any column (docs/fidelity.md), and a float that is no
        // finite number is written by name: strings only those (`pattern` checks strings alone).
        case .integer:
            // A REAL the column holds (2.5 in an INTEGER column) is exported as the number it is.
            put("type", type("integer", "number", "string"))
            put("pattern", .string("^$"))
        case .decimal:
            // A numeral as text too: PostgreSQL's `numeric` is exported as its exact digits (`"12.50"`).
            put("type", type("number", "string"))
            put("pattern", .string(#"^(|-?Infinity|NaN|-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?)$"#))
        case .bool:
            // An export writes the column as stored: SQLite holds a bool as
            // 0 or 1, or as one of the words.
            // Any other integer reads as yes (docs/fidelity.md): `2` and `-1` are bools as stored.
            put("type", type("boolean", "integer", "string"))
            put("pattern", .string(boolWordPattern))
        case .multichoice:
            // An array, or as stored and exported: text holding a JSON array.
            put("type", type("array", "string"))
            put("uniqueItems", .bool(true))
            if !choiceValues.isEmpty { put("items", .object([JSONNode.Member(key: "enum", value: .array(choiceValues))])) }
        case .choice:
            if !choiceValues.isEmpty { put("enum", .array(choiceValues + (nullable ? [.null] : []))) }
        case _ where field.transforms.contains(.hex):
            // Bytes, as an export writes them ({"$base64": "…"}), or typed in hex as text; a
            // BLOB column holds numbers as they were given too (no affinity), exported as numbers.
            put("type", type("object", "string", "number"))
            put("properties", .object([JSONNode.Member(key: "$base64", value: .object([
                JSONNode.Member(key: "type", value: .string("string")),
                JSONNode.Member(key: "contentEncoding", value: .string("base64")),
            ]))]))
            put("required", .array([.string("$base64")]))
            put("additionalProperties", .bool(false))
        case .date, .time, .datetime:
            // ISO 8601 text, or the number of a column that keeps its dates
            // as Unix time or Julian days (docs/fidelity.md), as exported.
            put("type", type("string", "number"))
        default:
            put("type", type("string"))
        }
        switch field.kind {
        case _ where untyped: break
        case .email: put("format", .string("email"))
        case .url: put("format", .string("uri"))
        case .date, .time, .datetime: put("pattern", .string(storedDatePattern))
        case .phone: put("pattern", .string(TextPattern.phone))
        case .state: put("pattern", .string(TextPattern.state))
        case .zip: put("pattern", .string(TextPattern.zip))
        default: break
        }
        for rule in field.rules {
            switch rule {
            case .minLength(let n): put(field.kind == .multichoice ? "minItems" : "minLength", .integer(Int64(n)))
            case .maxLength(let n): put(field.kind == .multichoice ? "maxItems" : "maxLength", .integer(Int64(n)))
            case .pattern(let pattern, _): put("pattern", .string(pattern))
            case .email: put("format", .string("email"))
            case .range(let min, let max):
                if let min { put("minimum", .double(min)) }
                if let max { put("maximum", .double(max)) }
            default: break
            }
        }
        if let hint = field.hint { put("description", .string(hint)) }
        if field.defaultValue != .null { put("default", FormSpec.value(field.defaultValue)) }
        if field.isSecure { put("writeOnly", .bool(true)) }
        if field.isReadOnly { put("readOnly", .bool(true)) }
        // Later members win: keep the last of each key (a rule's pattern over the kind's).
        var seen: Set<String> = []
        let unique = members.reversed().filter { seen.insert($0.key).inserted }.reversed()
        return .object(Array(unique))
    }
}
