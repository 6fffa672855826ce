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
    func message(_ headline: String, progress: EditProgress.Snapshot,
                 fallback: DraftAutosaver.Fallback?) -> String {
        guard progress.hasUnsavedChanges else { return "\(headline): no changes made.\n" }
        var text: String
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

    /// Where the draft is when a save failed: a detail line under the error.
    func draftDetail(fallback: DraftAutosaver.Fallback?) -> String {
        guard let fallback else { return "your changes are kept as a draft; to resume, run: \(command)" }
        return "your changes are kept in \(fallback.location); to resume, run: \(command)"
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
