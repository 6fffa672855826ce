import FormBasics
import FormCore
import FoundationEssentials

/// The record as a text document to edit in `$VISUAL`/`$EDITOR`, the way
/// `kubectl edit` does it: comments (`#`) explain, one `field: value` line per
/// editable field.
///
/// ```
/// # Name (text, required)
/// name: Ann
/// ```
///
/// Values are one line: a line break is written `\n`, a backslash `\\`; a value
/// with spaces at its ends (or starting with a quote) is quoted `"…"`. A field
/// with no value (NULL) is left empty, empty text is `""`, and the bare word
/// `null` sets no value (the text is `"null"`), as `FIELD:=null` does on the
/// command line. Secure fields are left out; read-only fields appear as comments,
/// and a field's `hiddenWhen`/`disabledWhen` is explained above it, with
/// whether it holds now.
enum EditorDocument {
    /// A field changed by someone else since the edit began.
    struct Conflict: Sendable, Hashable {
        var field: String
        /// The value now stored, as shown.
        var theirs: String
        /// The value both sides started from, when known (shown with `yours`).
        var base: String? = nil
        /// The person's value, the one on the field's value line.
        var yours: String? = nil
    }

    /// The document for `form` with `values` (display texts by field key).
    ///
    /// - parameter subject: what is being edited (`people 3`), for the header.
    /// - parameter errors: shown at the top when the document is reopened after a failed save.
    /// - parameter emptyText: fields holding empty text rather than no value, written `""`.
    /// - parameter referred: a foreign key's value with its row's label (`1 (AC/DC)`), by field key.
    static func render(form: Form, values: [String: String], errors: [String] = [],
                       conflicts: [Conflict] = [], subject: String? = nil, emptyText: Set<String> = [],
                       referred: [String: String] = [:], restored: String? = nil,
                       hidden: Set<String> = [], disabled: Set<String> = []) -> String {
        var out = "# Editing \(oneLine(subject ?? form.name)) (\(oneLine(form.title))).\n"
        out += "# Lines starting with '#' are ignored. Change the values after the colons,\n"
        out += "# then save and close the editor. A line break in a value is written \\n,\n"
        out += "# a tab \\t, a backslash \\\\ (so C:\\temp is typed C:\\\\temp);\n"
        out += "# quote a value \"like this\" to keep spaces at its ends. An empty value\n"
        out += "# is no value (NULL) where the column allows it; \"\" is empty text; null is no value.\n"
        if let restored {
            out += "#\n# RESTORED: the values below are your unsaved draft of \(oneLine(restored)).\n"
            out += "# Save and close the editor to save them; delete everything to cancel\n"
            out += "# (the draft is then discarded).\n"
        } else if conflicts.isEmpty {
            out += "# Leave the file unchanged, or delete everything, to cancel.\n"
        }
        if !errors.isEmpty {
            out += "#\n# ERRORS: fix them, then save again:\n"
            for error in errors { out += "#   \(oneLine(error))\n" }
        }
        if !conflicts.isEmpty {
            out += "#\n# CONFLICT: someone else saved these fields since you began; your values\n"
            out += "# are below. Write theirs, or keep yours by deleting these CONFLICT lines,\n"
            out += "# then save. Left unchanged, nothing is saved and your changes are kept as a draft:\n"
            for conflict in conflicts { out += "#   \(oneLine(conflict.field)): now \(encodeValue(conflict.theirs))\n" }
        }
        for field in form.fields where field.holdsValue && field.isStored && !field.isSecure {
            let value = emptyText.contains(field.key) ? "\"\"" : encodeValue(values[field.key] ?? "")
            out += "#\n"
            out += "# \(oneLine(field.label)) (\(describe(field)))\n"
            if !field.choices.isEmpty {
                let labels = field.choices.filter { !$0.isDisabled }.map { $0.label.isEmpty ? "\"\"" : $0.label }
                out += "# choices: \(oneLine(labels.joined(separator: ", ")))\n"
            }
            if !field.suggestions.isEmpty {
                out += "# suggestions: \(oneLine(field.suggestions.joined(separator: ", ")))\n"
            }
            if let format = field.format { out += "# format: \(oneLine(format))\n" }
            if let hint = field.hint { out += "# \(oneLine(hint))\n" }
            if let condition = field.hiddenWhen {
                out += "# hidden when \(oneLine(form.explain(condition)))"
                out += hidden.contains(field.key) ? ": hidden now, its value is saved only if your changes show it\n" : "\n"
            }
            if let condition = field.disabledWhen {
                out += "# disabled when \(oneLine(form.explain(condition)))"
                out += disabled.contains(field.key) ? ": disabled now, it cannot be changed\n" : "\n"
            }
            if let row = referred[field.key] { out += "# now: \(oneLine(row))\n" }
            if let conflict = conflicts.first(where: { $0.field == field.key }) {
                out += "# CONFLICT: now \(encodeValue(conflict.theirs)) in the database\n"
                if let base = conflict.base { out += "#   base:   \(encodeValue(base))\n" }
                if let yours = conflict.yours { out += "#   yours:  \(encodeValue(yours))   (the line below)\n" }
                if conflict.base != nil || conflict.yours != nil {
                    out += "#   theirs: \(encodeValue(conflict.theirs))\n"
                }
            }
            if field.isReadOnly {
                out += "# \(encodeKey(field.key)): \(value)   (read-only)\n"
            } else {
                out += "\(encodeKey(field.key)): \(value)\n"
            }
        }
        return out
    }

    /// The values in an edited document, by field key. Fields left out are not
    /// in the result (they stay as they were).
    ///
    /// - throws: `EditorDocumentError.cancelled` for a document with nothing but
    ///   comments and blank lines; `.invalid` with every bad line (unknown or
    ///   read-only field, a field given twice, a line without `:`).
    static func parse(_ text: String, form: Form) throws -> [String: String] {
        try parseInputs(text, form: form).mapValues(\.text)
    }

    /// The values of an edited document as inputs: `null` is NULL, `""` empty
    /// text, anything else text as typed. Throws as `parse` does.
    static func parseInputs(_ text: String, form: Form) throws -> [String: FieldInput] {
        let (values, problems, sawContent) = scan(text, form: form)
        guard sawContent else { throw EditorDocumentError.cancelled }
        guard problems.isEmpty else { throw EditorDocumentError.invalid(problems) }
        return values
    }

    /// Every line of a document read: the values of the lines that read, the
    /// problems of those that do not, and whether it holds any value line.
    static func scan(_ text: String, form: Form) -> (values: [String: FieldInput], problems: [InputError], sawContent: Bool) {
        var values: [String: FieldInput] = [:]
        var firstLine: [String: Int] = [:]
        var problems: [InputError] = []
        var sawContent = false
        let editable = form.fields.filter { $0.holdsValue && $0.isStored && !$0.isSecure }

        for (offset, rawLine) in text.split(omittingEmptySubsequences: false,
                                                               whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).enumerated() {
            let lineNumber = offset + 1
            let trimmed = rawLine.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            sawContent = true
            do {
                let (key, rest) = try splitKey(trimmed)
                guard let field = form.field(key), field.holdsValue else {
                    var message = "unknown field '\(key)'"
                    if let guess = Suggestion.closest(to: key, among: editable.map(\.key)) {
                        message += " (did you mean '\(guess)'?)"
                    }
                    throw LineProblem(message)
                }
                if field.isSecure { throw LineProblem("'\(key)' is secret and cannot be set in a document") }
                if field.isReadOnly || !field.isStored { throw LineProblem("'\(key)' is read-only") }
                if let first = firstLine[key] {
                    // Refused, but the later value is what a draft keeps: a line added below
                    // the one shown is the one typed (keeping the first lost it).
                    values[key] = try decodeValue(rest)
                    throw LineProblem("'\(key)' is given twice (first on line \(first))")
                }
                firstLine[key] = lineNumber
                do {
                    values[key] = try decodeValue(rest)
                } catch {
                    // Refused, but what was typed is what a draft keeps (an unclosed quote, a bad escape):
                    // the line as it stands, for the person to mend when the draft is offered.
                    values[key] = .typed(String(rest.drop { $0 == " " || $0 == "\t" }))
                    throw error
                }
            } catch let problem as LineProblem {
                problems.append(InputError(line: lineNumber, message: problem.message))
            } catch {
                problems.append(InputError(line: lineNumber, message: "\(error)"))
            }
        }
        return (values, problems, sawContent)
    }

    // MARK: Encoding

    // Values are escaped and read back scalar by scalar, not by Character: a
    // combining mark after a backslash (or after an escape's letter) would
    // otherwise join it into one Character and the escape would be lost (found
    // by Scripts/fuzz.sh).
    static func encodeValue(_ value: String) -> String {
        let scalars = value.unicodeScalars
        // `null` alone means no value: the word itself is quoted.
        let needsQuotes = scalars.first.map(isPadding) == true || scalars.last.map(isPadding) == true
            || scalars.first == "\"" || value == "null"
        let body = ValueEscapes.escaped(value, quotes: needsQuotes)
        return needsQuotes ? "\"" + body + "\"" : body
    }

    /// Spacing that reading a value trims from its ends: a value with it there is quoted.
    private static func isPadding(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar.isSpaceOrTab
    }

    static func encodeKey(_ key: String) -> String {
        let needsQuotes = key.contains(":") || key.hasPrefix("#") || key.hasPrefix("\"")
            || key.first?.isWhitespace == true || key.last?.isWhitespace == true
            || key.unicodeScalars.contains(where: TerminalText.isUnsafe)
        guard needsQuotes else { return key }
        return "\"" + ValueEscapes.escaped(key, quotes: true) + "\""
    }

    // MARK: Decoding

    /// The key (quoted or not) and the text after its colon.
    static func splitKey(_ line: Substring) throws -> (String, Substring) {
        if line.unicodeScalars.first == "\"" {
            guard let (key, after) = quoted(line) else { throw LineProblem("unterminated quoted field name") }
            let rest = after.unicodeScalars.drop { $0 == " " || $0 == "\t" }
            guard rest.first == ":" else { throw LineProblem("expected 'field: value'") }
            return (key, Substring(rest.dropFirst()))
        }
        guard let colon = line.unicodeScalars.firstIndex(of: ":") else { throw LineProblem("expected 'field: value'") }
        let key = String(trimmingSpaces(Substring(line.unicodeScalars[..<colon])))
        guard !key.isEmpty else { throw LineProblem("expected 'field: value'") }
        return (key, Substring(line.unicodeScalars[line.unicodeScalars.index(after: colon)...]))
    }

    static func decodeValue(_ text: Substring) throws -> FieldInput {
        let trimmed = trimmingSpaces(text)
        if trimmed.unicodeScalars.first == "\"" {
            guard let (value, rest) = quoted(trimmed), rest.isEmpty else {
                throw LineProblem("unterminated quoted value (a value that starts with a quote must end with one)")
            }
            return value.isEmpty ? .emptyText : .typed(value)
        }
        if trimmed == "null" { return .null }
        return .typed(ValueEscapes.unescaped(trimmed))
    }

    /// Without the spaces and tabs at its ends (scalars: a mark after a space is kept).
    private static func trimmingSpaces(_ text: Substring) -> Substring {
        let scalars = text.unicodeScalars
        let isSpace = { (scalar: Unicode.Scalar) in scalar.isSpaceOrTab }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
              let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return Substring(scalars[first...last])
    }

    /// The text of a `"…"` at the start of `text`, unescaped, and what follows it.
    private static func quoted(_ text: Substring) -> (String, Substring)? {
        let scalars = text.unicodeScalars
        var index = scalars.index(after: scalars.startIndex)
        var raw = ""
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if scalar == "\\", scalars.index(after: index) < scalars.endIndex {
                raw.unicodeScalars.append(scalar)
                index = scalars.index(after: index)
                raw.unicodeScalars.append(scalars[index])
            } else if scalar == "\"" {
                return (ValueEscapes.unescaped(Substring(raw)), Substring(scalars[scalars.index(after: index)...]))
            } else {
                raw.unicodeScalars.append(scalar)
            }
            index = scalars.index(after: index)
        }
        return nil
    }

    // MARK: Comments

    private static func describe(_ field: Field) -> String {
        // A BLOB column's field is said as what it holds (`bytes`), as `form` says it: it said `text`.
        var parts = [FieldFacts.kind(field)]
        if field.wantsValue || field.rules.contains(.required) { parts.append("required") }
        return (parts + FieldFacts.rules(field)).joined(separator: ", ")
    }

    /// A comment's text: one line, neutralised for the terminal the editor runs in.
    static func oneLine(_ text: String) -> String {
        TerminalText.neutralised(text.replacing("\r\n", with: " ").replacing("\n", with: " "))
    }
}

/// Why an edited document was not taken.
enum EditorDocumentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing but comments and blank lines: the person cancelled.
    case cancelled
    /// Lines that could not be read, each with its line number.
    case invalid([InputError])

    var description: String {
        switch self {
        case .cancelled: return "Edit cancelled, no changes made."
        case .invalid(let problems): return problems.map(\.description).joined(separator: "; ")
        }
    }

    /// The problems as lines for the reopened document's header.
    var messages: [String] {
        switch self {
        case .cancelled: return []
        case .invalid(let problems): return problems.map(\.description)
        }
    }
}

/// A problem on one line of the document.
struct LineProblem: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
