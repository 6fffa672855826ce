import FormCore
import FoundationEssentials

/// A JSON object read as an input record: field → value, with the command's
/// rules on top of FormCore's one `JSONReader`. Numbers without a fraction or
/// exponent are integers (beyond Int64: "integer out of range"), others
/// doubles; an object is a field's value only as a BLOB (`{"$base64": "…"}`,
/// what export writes); a member holding an array of objects is a group's
/// child rows (`import --children`).
enum JSONRecord {
    /// How deeply a record's values may nest.
    static let maxDepth = 64

    /// A reader of `bytes[start..<end]` with the command's limits.
    static func reader(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil,
                       at position: JSONReader.Position = .start) -> JSONReader {
        JSONReader(bytes, from: start, to: end, at: position, maxDepth: maxDepth, integersMustFit: true,
                   keepsDocumentText: true)
    }

    /// An object's members as `read` leaves them: the plain values (null,
    /// booleans, numbers, strings) in the record, and the members holding an
    /// object or an array kept as they are, for `record` to read once the
    /// whole line has parsed (a syntax error after them is reported first).
    struct Members {
        var values: InputValues
        var nested: [JSONNode.Member] = []
    }

    /// Reads the object at the reader's next byte (its `{`) member by member,
    /// through FormCore's one `JSONReader` but building no `JSONNode` of it: a
    /// key among `names` (the names an import expects) takes its place in a
    /// record laid out by them with no string made of it; another key is
    /// added after them. A repeated key is refused as `JSONReader` refuses one.
    ///
    /// - throws: `JSONSyntaxError`.
    static func read(_ reader: inout JSONReader, names: ExpectedNames?) throws(JSONSyntaxError) -> Members {
        var members = Members(values: InputValues(names: names?.names ?? []))
        var last = -1
        var cursor = try reader.beginObject()
        while let key = try reader.nextKey(&cursor) {
            let position = names?.position(of: key, in: reader, after: last)
                ?? members.values.position(adding: reader.string(of: key))
            guard !members.values.holdsValue(at: position) else { throw reader.duplicateKey(key) }
            last = position
            let (node, text) = try reader.memberValueAndText(of: key)
            switch node {
            case .object, .array:
                // Held until the line has parsed; `.null` keeps the name's place (and catches a repeat).
                members.nested.append(JSONNode.Member(key: members.values.names[position], value: node, text: text))
                members.values[at: position] = .null
            case .null, .bool, .number, .string:
                members.values[at: position] = node.fieldValue
                if let text { members.values.keepWrittenNumber(text, at: position) }
            }
        }
        return members
    }

    /// An object read by `read` as a record and its child rows.
    ///
    /// - parameter line: the line the object starts on, for errors.
    /// - parameter groups: the keys of the groups whose rows a member may hold
    ///   (`--children`): an array of objects under one of them is its rows.
    /// - throws: `InputError` at `line`.
    static func record(_ members: Members, line: Int, groups: Set<String>)
        throws -> (values: InputValues, rows: [String: [[String: FieldValue]]]) {
        guard !members.nested.isEmpty else { return (members.values, [:]) }
        let (nested, rows) = try record(members.nested, line: line, groups: groups)
        var values = members.values
        // A group's rows and a reference's labels are no values: their names are left without one.
        for member in members.nested { values[member.key] = nested[member.key] }
        return (values, rows)
    }

    /// An object's members as a record and its child rows.
    private static func record(_ members: [JSONNode.Member], line: Int, groups: Set<String>)
        throws -> (values: InputValues, rows: [String: [[String: FieldValue]]]) {
        guard members.contains(where: { isRows($0, groups: groups) }) else { return (try values(members, line: line), [:]) }
        var rows: [String: [[String: FieldValue]]] = [:]
        var scalars: [JSONNode.Member] = []
        scalars.reserveCapacity(members.count)
        for member in members {
            guard isRows(member, groups: groups), case .array(let items) = member.value else {
                scalars.append(member)
                continue
            }
            rows[member.key] = try items.map { item in
                guard case .object(let row) = item else { throw mixedList(line) }
                return try values(row, line: line).dictionary
            }
        }
        return (try values(scalars, line: line), rows)
    }

    /// Whether a member holds a group's rows: a list of objects under one of
    /// `groups`' keys. Under any other key such a list is a value like any
    /// other (a JSON column's document).
    private static func isRows(_ member: JSONNode.Member, groups: Set<String>) -> Bool {
        guard groups.contains(member.key), case .array(let items) = member.value, case .object = items.first else {
            return false
        }
        return true
    }

    /// An object's members as field → value.
    private static func values(_ members: [JSONNode.Member], line: Int) throws -> InputValues {
        // The JSON reader refused a repeated key: each member is added as it comes.
        var record = InputValues()
        for member in members {
            let key = member.key
            switch member.value {
            case .object(let inner) where key == ReferenceLabels.jsonMember && inner.first?.key != "$base64":
                // The labels `show` and `list` write beside a record's foreign keys: read back, they are no value.
                continue
            default:
                // A BLOB as export writes it ({"$base64": "…"}), or an object as its JSON text.
                guard let value = member.fieldValue else {
                    throw InputError(line: line, message: "field '\(key)': $base64 is not valid base64")
                }
                record[key] = value
            }
        }
        return record
    }

    private static func mixedList(_ line: Int) -> InputError {
        InputError(line: line, message: "a list holds values or objects (rows), not both, and no lists of lists of objects")
    }
}

extension JSONRecord {
    /// A whole input that is one object (`new --json`, a `--children` body):
    /// nothing but whitespace may follow it.
    ///
    /// - throws: `InputError` naming the line (and the column of a syntax error).
    static func only(_ bytes: [UInt8], groups: Set<String> = [])
        throws -> (values: InputValues, rows: [String: [[String: FieldValue]]]) {
        var reader = reader(bytes)
        reader.skipByteOrderMark()
        reader.skipSpace()
        guard let first = reader.current else {
            // Nothing but white space: no line of it is at fault.
            throw InputError(line: 1, message: "expected a JSON object, and the input is empty")
        }
        guard first == UInt8(ascii: "{") else { throw InputError(line: reader.line, message: "expected a JSON object") }
        let line = reader.line
        let members: Members
        do { members = try read(&reader, names: nil) } catch { throw InputError(error) }
        reader.skipSpace()
        guard reader.isAtEnd else {
            throw InputError(line: reader.line, message: "unexpected text after the JSON object")
        }
        return try record(members, line: line, groups: groups)
    }
}
