import FormCore

/// What is said when an interactive edit stops before saving (Ctrl-C, SIGTERM,
/// the end of input, an abandoned document): whether a draft holds the changes,
/// where it went, and the command that offers it again.
///
/// Exit code 1 for an interrupted edit (draft kept): the documented code for
/// "anything else"; 130 would be the shell's for SIGINT, but scripts get the
/// table in `formstore --help`.
struct ResumeNotice: Sendable, Hashable {
    /// The command that opens the record again and offers the draft.
    var command: String
    /// The database the edit ran on, for the reason a draft could not go there.
    var databasePath: String?

    init(command: String, databasePath: String? = nil) {
        self.command = command
        self.databasePath = databasePath
    }

    /// `formstore edit FORM KEY` (`--children` for a form with child rows,
    /// `--editor` for an edit in `$EDITOR`: each face restores the draft),
    /// shell-quoted; `globals` adds the `--db` and `--forms` the edit ran with.
    init(form: String, key: RecordKey?, children: Bool = false, editor: Bool = false, globals: GlobalOptions? = nil) {
        var words = ["formstore"]
        if let globals {
            words += ["--db", ShellWord.quote(globals.shownDatabase)]
            if let forms = globals.formsDirectory { words += ["--forms", ShellWord.quote(forms)] }
        }
        if let key {
            words += ["edit", ShellWord.quote(form), ShellWord.quote(key.typedText)] + (children ? ["--children"] : []) + (editor ? ["--editor"] : [])
        } else {
            words += ["drafts", ShellWord.quote(form)]
        }
        command = words.joined(separator: " ")
        databasePath = globals?.shownDatabase
    }

    /// The lines to print. `headline` says what happened ("Interrupted").
    /// `unsaved` (`Draft.shownLines`) is printed where nothing could keep
    /// the draft, so what was typed is on the screen rather than lost.
    func message(_ headline: String, progress: EditProgress.Snapshot,
                 fallback: DraftAutosaver.Fallback?, unsaved: [String] = []) -> String {
        // "No changes made" was untrue of free mode, whose fields are saved as they are left.
        guard progress.hasUnsavedChanges else { return "\(headline): no unsaved changes.\n" }
        guard progress.hasDraftableChanges else {
            // Only secrets were typed, and no draft keeps them: there is no draft to offer.
            return "\(headline): nothing was saved; secret fields are never kept in drafts, so there is no draft. "
                + "Type again: " + progress.secureFieldsChanged.joined(separator: ", ") + ".\n"
        }
        var text: String
        if let fallback, fallback.isNowhere {
            text = "\(headline): no draft could be kept (\(reason(fallback))); your changes, to type again:\n"
            text += unsaved.map { "  \($0)\n" }.joined()
            if !progress.secureFieldsChanged.isEmpty {
                text += "  and the secret fields " + progress.secureFieldsChanged.joined(separator: ", ") + ".\n"
            }
            return text + "To start again, run: \(command)\n"
        }
        if let fallback {
            text = "\(headline): the database could not take the draft (\(reason(fallback)));\n"
            text += "your changes are kept in \(fallback.location).\n"
        } else {
            text = "\(headline): your changes are kept as a draft.\n"
        }
        if !progress.secureFieldsChanged.isEmpty {
            text += "Secret fields are never kept in drafts; type again: "
                + progress.secureFieldsChanged.joined(separator: ", ") + ".\n"
        }
        text += "To resume, run: \(command)  (the draft is offered)\n"
        return text
    }

    /// Where the draft is when a save failed: detail lines under the error
    /// (with `unsaved`, one per change, where nothing could keep the draft:
    /// each its own line, so a line break inside a value, printed `\n`, is
    /// told apart from the next change).
    ///
    /// `progress` names the secure fields changed, which no draft keeps: they
    /// are to be typed again, and said so.
    func draftDetails(fallback: DraftAutosaver.Fallback?, unsaved: [String] = [],
                      progress: EditProgress.Snapshot = .init()) -> [String] {
        let secrets = progress.secureFieldsChanged.joined(separator: ", ")
        guard progress.secureFieldsChanged.isEmpty || progress.hasDraftableChanges else {
            return ["secret fields are never kept in drafts, so there is no draft; type again: \(secrets)"]
        }
        let typeAgain = secrets.isEmpty ? [] : ["secret fields are never kept in drafts; type again: \(secrets)"]
        guard let fallback else { return ["your changes are kept as a draft; to resume, run: \(command)"] + typeAgain }
        if fallback.isNowhere {
            return ["no draft could be kept; your changes, to type again:"] + unsaved.map { "  \($0)" }
                + (secrets.isEmpty ? [] : ["  and the secret fields \(secrets)"])
                + ["to start again, run: \(command)"]
        }
        return ["your changes are kept in \(fallback.location); to resume, run: \(command)"] + typeAgain
    }

    /// Said while the edit goes on, once the autosave found nowhere to keep
    /// the draft: what is typed is lost if the edit stops before a save.
    func noDraftWarning(_ fallback: DraftAutosaver.Fallback) -> String {
        "Warning: no draft can be kept (\(reason(fallback))); what you type is lost if this edit stops before it is saved."
    }

    /// Worded like the command's own errors: no raw SQLite codes or SQL.
    private func reason(_ fallback: DraftAutosaver.Fallback) -> String {
        guard let error = fallback.error else { return fallback.reason }
        return CLIError.classifying(error, databasePath: databasePath).message
    }
}

/// Words written into a command line for a person to copy.
private enum ShellWord {
    /// The word as is when the shell would read it back unchanged, else in
    /// single quotes; a word holding a control, bidi or zero-width character
    /// (a key from a hostile database) in bash's `$'…'`, whose escapes (`\x1b`,
    /// `\u202e`) print safely and read back as the same word.
    static func quote(_ word: String) -> String {
        if word.unicodeScalars.contains(where: TerminalText.isUnsafe) { return ansiC(word) }
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".", ",", "=", "/", ":", "@", "+": return true
            default: return false
            }
        }
        return plain ? word : "'" + word.replacing("'", with: "'\\''") + "'"
    }

    private static func ansiC(_ word: String) -> String {
        var out = "$'"
        for scalar in word.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "'": out += "\\'"
            case let hidden where TerminalText.isUnsafe(hidden):
                let hex = String(hidden.value, radix: 16)
                out += hidden.value < 0x80
                    ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
                    : "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "'"
    }
}

extension Draft {
    /// What the draft holds, a line per changed field (`Label (key): value`,
    /// as typed where it did not parse) and per changed row, for a person to
    /// type again where nothing could keep it. Secure fields never are in a draft.
    func shownLines(form: Form) -> [String] {
        changedFields.compactMap { key -> String? in
            guard let field = form.field(key), !field.isSecure else { return nil }
            let text = inputs[key].map { TerminalText.neutralised($0) } ?? FieldDisplay.text(values[key] ?? .null, of: field)
            return "\(FieldDisplay.named(field)): \(text)"
        } + shownRowLines(form: form)
    }

    /// A line per row the draft changed or added: `lines[#2]: amount: 4.50`.
    func shownRowLines(form: Form) -> [String] {
        var lines: [String] = []
        for (name, group) in (groups ?? [:]).sorted(by: { $0.key < $1.key }) {
            for (index, row) in group.rows.enumerated() where !row.values.isEmpty || !row.inputs.isEmpty {
                // A new row's cells left empty were not given: only what it holds is listed.
                let keys = Set(row.values.filter { row.key != nil || $0.value != .null }.keys).union(row.inputs.keys)
                let cells = keys.sorted().map { key in
                    "\(key): " + (row.inputs[key].map { TerminalText.neutralised($0) }
                        ?? (form.group(name)?.field(key)).map { FieldDisplay.text(row.values[key] ?? .null, of: $0) }
                        ?? Self.shown(row.values[key] ?? .null))
                }
                lines.append("\(name)[#\(index + 1)]\(row.key == nil ? " (new)" : ""): " + cells.joined(separator: ", "))
            }
        }
        return lines
    }

    /// A cell of a group the form at hand does not define (a form read without
    /// its children) as a person reads it: `(null)`, `(empty)`, the text.
    private static func shown(_ value: FieldValue) -> String {
        if value == .null { return "(null)" }
        if value == .text("") { return "(empty)" }
        return TerminalText.neutralised(ValueText.text(value, kind: nil, blobsBySize: true))
    }
}

extension CLIError {
    /// The record a session edits was deleted by another writer: nothing was
    /// saved, and what was typed is in a draft (the session keeps one), named
    /// so the person can find it (`formstore drafts FORM`, `draft show`).
    static func deletedWhileEditing(_ session: FormSession) -> CLIError {
        let subject = "\(session.form.name) \(session.key?.typedText ?? "")"
        let kept = session.hasUnsavedChanges ? "; what you typed is kept as a draft: formstore draft show \(subject)" : ""
        return .notFound("\(subject): the record was deleted while you edited it; nothing was saved" + kept)
    }
}
