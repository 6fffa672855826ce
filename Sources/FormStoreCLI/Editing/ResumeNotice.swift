import FormCore
import Synchronization

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

    init(command: String) {
        self.command = command
    }

    /// `formstore edit FORM KEY` (with `--editor` for the document), shell-quoted.
    init(form: String, key: RecordKey?, editor: Bool = false) {
        if let key {
            command = "formstore edit \(ShellWord.quote(form)) \(ShellWord.quote(key.description))"
                + (editor ? " --editor" : "")
        } else {
            command = "formstore drafts \(ShellWord.quote(form))"
        }
    }

    /// The lines to print. `headline` says what happened ("Interrupted").
    func message(_ headline: String, progress: EditProgress.Snapshot,
                 fallback: DraftAutosaver.Fallback?) -> String {
        guard progress.hasUnsavedChanges else { return "\(headline): no changes made.\n" }
        var text: String
        if let fallback {
            text = "\(headline): the database could not take the draft (\(fallback.reason));\n"
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
}

/// What a signal handler may know about an edit in progress. The loop updates
/// it after every change; the trap's queue reads it.
final class EditProgress: Sendable {
    struct Snapshot: Sendable, Hashable {
        var hasUnsavedChanges = false
        /// Labels of changed secure fields: a draft leaves them out.
        var secureFieldsChanged: [String] = []
    }

    private let state = Mutex(Snapshot())

    var snapshot: Snapshot { state.withLock { $0 } }

    /// Takes the session's state now (on the session's own thread).
    func update(from session: FormSession) {
        let next = Snapshot(session)
        state.withLock { $0 = next }
    }
}

extension EditProgress.Snapshot {
    init(_ session: FormSession) {
        hasUnsavedChanges = session.hasUnsavedChanges
        let dirty = Set(session.dirtyFields)
        secureFieldsChanged = session.form.fields
            .filter { $0.isSecure && (dirty.contains($0.key) || session.inputs[$0.key] != nil) }
            .map(\.label)
    }
}

/// Words written into a command line for a person to copy.
enum ShellWord {
    /// The word as is when the shell would read it back unchanged, else in single quotes.
    static func quote(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".", ",", "=", "/", ":", "@", "+": return true
            default: return false
            }
        }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// Installs a `SignalTrap` for an edit: on SIGINT or SIGTERM the draft is
/// flushed, the resume notice printed, and the process exits with 1.
struct InterruptGuard {
    let progress = EditProgress()
    private let trap: SignalTrap

    init(session: FormSession, notice: ResumeNotice, install: Bool) {
        let flush = session.makeDraftFlusher()
        let progress = self.progress
        progress.update(from: session)
        if install {
            trap = SignalTrap.install { _ in
                let fallback = flush()
                return ("\n" + notice.message("Interrupted", progress: progress.snapshot, fallback: fallback),
                        .failure)
            }
        } else {
            trap = SignalTrap.inert
        }
    }

    func update(from session: FormSession) { progress.update(from: session) }

    func remove() { trap.remove() }
}
