import FormCore
import FormBasics

/// A form's repeating groups in the editor document: after the parent's
/// fields, each group under a `[group]` line, each row a block headed
/// `[group rN]` (a row of this session) or `[group new]` (a row to add).
///
/// ```
/// [invoice_line]
/// [invoice_line r1]
/// # id: 10
/// item: Tea
/// amount: 2.5
/// [invoice_line new]
/// item: Jam
/// ```
///
/// The blocks under a `[group]` line state the whole group: a row whose
/// block is deleted is removed, and the blocks' order is the rows' order (for
/// a group that keeps one). A group whose `[group]` line is deleted is left as it was.
extension EditorDocument {
    /// One row block of an edited document.
    struct EditedRow: Sendable, Hashable {
        var group: String
        /// The session's row id; `nil` for a `[group new]` block.
        var id: String?
        /// The line of the block's header.
        var line: Int
        var values: [String: FieldInput] = [:]
    }

    /// An edited document split into the parent's part and its row blocks.
    struct EditedGroups: Sendable, Hashable {
        /// The lines before the first group line.
        var parent: String
        /// The groups whose `[group]` line is in the document.
        var stated: Set<String> = []
        var rows: [EditedRow] = []
        var problems: [InputError] = []
    }

    /// A row as the document shows it: its session id, its stored key's
    /// columns, and the display text of each field.
    struct ShownRow: Sendable, Hashable {
        var id: String
        var key: [(String, String)]
        var texts: [String: String]

        static func == (a: ShownRow, b: ShownRow) -> Bool {
            a.id == b.id && a.texts == b.texts && a.key.map(\.0) == b.key.map(\.0) && a.key.map(\.1) == b.key.map(\.1)
        }
        func hash(into hasher: inout Hasher) { hasher.combine(id) }
    }

    /// The fields of a group a row block may set.
    static func rowFields(_ group: RowGroup) -> [Field] {
        group.fields.filter { field in
            field.holdsValue && field.isStored && !field.isSecure && !field.isReadOnly
                && !group.keyFields.contains(field.key) && !group.foreignKey.contains(field.key)
        }
    }

    /// The document's part for `group` with `rows`.
    static func renderGroup(_ group: RowGroup, title: String?, rows: [ShownRow]) -> String {
        let fields = rowFields(group)
        var out = "#\n# \(oneLine(title ?? group.key)): one block per row, under [\(oneLine(group.key))].\n"
        out += "# Delete a row's block to remove it; add a block headed [\(oneLine(group.key)) new] to add one"
        out += group.keepsOrder ? ";\n# the blocks' order is the rows' order.\n" : ".\n"
        out += "# Fields: " + oneLine(fields.map { "\($0.key) (\($0.label))" }.joined(separator: ", ")) + "\n"
        let typedKey = group.keyFields.filter { !group.foreignKey.contains($0) && group.field($0) != nil }
        if !typedKey.isEmpty { out += "# A new row may give its key: \(oneLine(typedKey.joined(separator: ", "))).\n" }
        out += "[\(group.key)]\n"
        for row in rows {
            out += "[\(group.key) \(row.id)]\n"
            for (column, value) in row.key { out += "# \(encodeKey(column)): \(encodeValue(value))\n" }
            for field in fields {
                let text = row.texts[field.key] ?? ""
                out += "\(encodeKey(field.key)): \(text.isEmpty ? "" : encodeValue(text))\n"
            }
        }
        return out
    }

    /// Splits an edited document at its first group line and reads the row blocks.
    static func parseGroups(_ text: String, form: Form) -> EditedGroups {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        var result = EditedGroups(parent: text)
        var parentLines: [Substring] = []
        var current: EditedRow?
        var inGroups = false
        var group: RowGroup?
        var seenRows: Set<[String]> = []
        func finish() {
            if let row = current { result.rows.append(row) }
            current = nil
        }
        for (offset, rawLine) in lines.enumerated() {
            let number = offset + 1
            let trimmed = rawLine.drop { $0 == " " || $0 == "\t" }
            if let header = groupHeader(trimmed, form: form) {
                inGroups = true
                finish()
                group = form.group(header.group)
                if let id = header.row {
                    if !result.stated.contains(header.group) {
                        result.problems.append(InputError(line: number,
                            message: "row before its group's [\(header.group)] line"))
                    }
                    // A block copied to add a row and left with its header would
                    // state that row twice, the last block overwriting the first.
                    if id != "new", !seenRows.insert([header.group, id]).inserted {
                        result.problems.append(InputError(line: number, message:
                            "[\(header.group) \(id)] is given twice: head a row to add with [\(header.group) new]"))
                    }
                    current = EditedRow(group: header.group, id: id == "new" ? nil : id, line: number)
                } else {
                    result.stated.insert(header.group)
                }
                continue
            }
            if !inGroups { parentLines.append(rawLine); continue }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard var row = current, let group else {
                result.problems.append(InputError(line: number, message: "a value outside any row: start a row with [group new]"))
                continue
            }
            do {
                let (key, rest) = try splitKey(trimmed)
                // A new row's key may be typed in (a join table's composite key); a stored row's is who it is.
                let newKey = row.id == nil && group.keyFields.contains(key) && !group.foreignKey.contains(key)
                guard newKey || rowFields(group).contains(where: { $0.key == key }) else {
                    let known = group.field(key) != nil
                    throw LineProblem(known ? "'\(group.key).\(key)' is read-only"
                                            : "unknown field '\(key)' in \(group.key)")
                }
                if row.values[key] != nil { throw LineProblem("'\(key)' is given twice in this row") }
                row.values[key] = try decodeValue(rest)
                current = row
            } catch let problem as LineProblem {
                result.problems.append(InputError(line: number, message: problem.message))
            } catch {
                result.problems.append(InputError(line: number, message: "\(error)"))
            }
        }
        finish()
        if inGroups {
            // The comments just before the first group line describe the group, not the parent.
            while let last = parentLines.last, last.isEmpty || last.hasPrefix("#") { parentLines.removeLast() }
            result.parent = parentLines.joined(separator: "\n") + "\n"
        }
        return result
    }

    /// `[group]` or `[group id]` for a group of `form`; nil for any other line.
    private static func groupHeader(_ line: Substring, form: Form) -> (group: String, row: String?)? {
        let line = line.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
        guard line.first == "[", line.last == "]" else { return nil }
        // A group's key may hold spaces (a table named `order lines`): the
        // row's id, if any, is the last word.
        let inner = String(line.dropFirst().dropLast()).trimmingSpaces()
        if form.group(inner) != nil { return (inner, nil) }
        guard let space = inner.lastIndex(of: " ") else { return nil }
        let name = String(inner[..<space]).trimmingSpaces(), id = String(inner[inner.index(after: space)...])
        guard form.group(name) != nil, !id.isEmpty else { return nil }
        return (name, id)
    }
}
