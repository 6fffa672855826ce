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
        JSONReader(bytes, from: start, to: end, at: position, maxDepth: maxDepth, integersMustFit: true)
    }

    /// One object as a record and its child rows.
    ///
    /// - parameter line: the line the object starts on, for errors.
    /// - parameter childRows: whether a member may hold a group's rows.
    /// - throws: `InputError` at `line`.
    static func record(_ node: JSONNode, line: Int, childRows: Bool)
        throws -> (values: InputValues, rows: [String: [[String: FieldValue]]]) {
        guard case .object(let members) = node else { throw InputError(line: line, message: "expected a JSON object") }
        // No member holds rows (every import row but a `--children` one): the members are the values, not copied.
        guard members.contains(where: isRows) else { return (try values(members, line: line), [:]) }
        var rows: [String: [[String: FieldValue]]] = [:]
        var scalars: [JSONNode.Member] = []
        scalars.reserveCapacity(members.count)
        for member in members {
            guard isRows(member), case .array(let items) = member.value else {
                scalars.append(member)
                continue
            }
            guard childRows else {
                throw InputError(line: line, message: "an object inside a list is not a field value")
            }
            rows[member.key] = try items.map { item in
                guard case .object(let row) = item else { throw mixedList(line) }
                return try values(row, line: line).dictionary
            }
        }
        return (try values(scalars, line: line), rows)
    }

    /// Whether a member holds a list of objects: a group's rows, not a value.
    private static func isRows(_ member: JSONNode.Member) -> Bool {
        guard case .array(let items) = member.value, case .object = items.first else { return false }
        return true
    }

    /// An object's members as field → value.
    private static func values(_ members: [JSONNode.Member], line: Int) throws -> InputValues {
        // The JSON reader refused a repeated key: each member is appended as it comes.
        var record = InputValues(minimumCapacity: members.count)
        for member in members {
            let key = member.key
            switch member.value {
            case .object(let inner) where key == ReferenceLabels.jsonMember && inner.first?.key != "$base64":
                // The labels `show` and `list` write beside a record's foreign keys: read back, they are no value.
                continue
            case .object(let inner):
                // A BLOB, as export writes it: {"$base64": "…"}.
                guard inner.count == 1, inner[0].key == "$base64", case .string(let text) = inner[0].value else {
                    throw InputError(line: line, message: "field '\(key)': a nested object is not a field value "
                                     + "(a BLOB is {\"$base64\": \"…\"})")
                }
                guard let data = Data(base64Encoded: text) else {
                    throw InputError(line: line, message: "field '\(key)': $base64 is not valid base64")
                }
                record.append(key, .data(data))
            default:
                guard let value = member.value.fieldValue else {
                    throw InputError(line: line, message: "field '\(key)': an object inside a list is not a field value")
                }
                record.append(key, value)
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
    static func only(_ bytes: [UInt8], childRows: Bool)
        throws -> (values: InputValues, rows: [String: [[String: FieldValue]]]) {
        var reader = reader(bytes)
        reader.skipByteOrderMark()
        reader.skipSpace()
        guard let first = reader.current else {
            throw InputError(line: reader.line, message: "expected a JSON object, found the end of the input")
        }
        guard first == UInt8(ascii: "{") else { throw InputError(line: reader.line, message: "expected a JSON object") }
        let line = reader.line
        let node: JSONNode
        do { node = try reader.value() } catch { throw InputError(error) }
        reader.skipSpace()
        guard reader.isAtEnd else {
            throw InputError(line: reader.line, message: "unexpected text after the JSON object")
        }
        return try record(node, line: line, childRows: childRows)
    }
}
