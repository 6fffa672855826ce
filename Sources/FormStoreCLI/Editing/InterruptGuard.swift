import FormCore
import Synchronization

/// Installs a `SignalTrap` for an edit: on SIGINT, SIGTERM, SIGHUP or SIGQUIT
/// a running editor is ended and its document removed, the draft is flushed,
/// the terminal restored (echo back on after a password prompt), the resume
/// notice printed, and the process exits with 1.
struct InterruptGuard {
    let progress = EditProgress()
    private let trap: SignalTrap

    init(session: FormSession, notice: ResumeNotice, install: Bool) {
        let flush = session.makeDraftFlusher()
        let progress = self.progress
        progress.update(from: session)
        if install {
            trap = SignalTrap.install { _ in
                EditorLauncher.endRunningEditor()
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
