import FormCore
import FoundationEssentials
import Glibc

/// `formstore edit FORM KEY` on a terminal: the whole form on the screen,
/// edited in place (see `FormScreen` for the keys, docs/terminal.md for the
/// renderer). The prompts stay for pipes, `--plain` and dumb terminals.
///
/// ```swift
/// guard FullScreenEdit.isPossible(input: terminal.input, output: terminal.output, environment: env) else { … }
/// return try FullScreenEdit(session: session, notice: notice, environment: env).run()
/// ```
///
/// Ctrl-C (and SIGINT, SIGTERM, SIGHUP, SIGQUIT) keep a draft, put the
/// terminal back and say how to resume (exit 1), as the prompts do.
final class FullScreenEdit {
    let session: FormSession
    private let notice: ResumeNotice
    private let policy: EmptyInputPolicy
    private let color: Bool
    /// What the person is told after the screen is gone.
    private let messages: any TextSink

    /// The labels the form shows beside its foreign keys.
    private let labels: ReferenceLabels?
    /// And beside its rows' foreign keys, by group key.
    private let rowLabels: [String: ReferenceLabels]

    init(session: FormSession, notice: ResumeNotice, policy: EmptyInputPolicy, labels: ReferenceLabels? = nil,
         rowLabels: [String: ReferenceLabels] = [:], environment: [String: String], messages: any TextSink) {
        self.session = session
        self.labels = labels
        self.rowLabels = rowLabels
        self.notice = notice
        self.policy = policy
        self.messages = messages
        color = Self.allowsColor(environment)
    }

    /// Both ends a terminal that can position a cursor: not `TERM=dumb`, not unset.
    static func isPossible(input: any ByteSource, output: any TextSink, environment: [String: String]) -> Bool {
        guard input.isTerminal, output.isTerminal, let term = environment["TERM"], !term.isEmpty else { return false }
        return term != "dumb"
    }

    /// `NO_COLOR` (no-color.org) and monochrome terminals (`vt100`, `*-m`,
    /// `*-mono`) draw without colour; bold, dim and reverse still mark things.
    static func allowsColor(_ environment: [String: String]) -> Bool {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        let term = environment["TERM"] ?? ""
        return !(term.hasSuffix("-m") || term.hasSuffix("-mono") || ["vt100", "vt102", "vt220", "vt52"].contains(term))
    }

    func run() throws -> ExitCode {
        let progress = EditProgress()
        progress.update(from: session)
        let flush = session.makeDraftFlusher()
        let write = session.makeDraftWriter()
        let notice = self.notice
        let form = session.form
        // The message goes to stderr once the form's screen is left: left here,
        // once, so that the exit hook does not leave it again and move the
        // cursor back over the message.
        let trap = SignalTrap.install { _ in
            // Free mode's field half typed is kept in the draft too (`EditProgress.typing`).
            let (snapshot, fallback, unsaved) = progress.keeping(typed: progress.typing, of: form, write: write)
                ?? (progress.snapshot, flush(), progress.draft)
            RawTerminal.restoreBeforeExit()
            return (notice.message("Interrupted", progress: snapshot, fallback: fallback,
                                   unsaved: unsaved?.shownLines(form: form) ?? []), .failure)
        }
        defer { trap.remove() }
        let terminal = try RawTerminal()
        let screen = FormScreen(session: session, policy: policy)
        screen.labels = labels
        screen.rowLabels = rowLabels
        // Another writer's commit wakes the loop (no timer reads the record); see FormScreen+Live.
        let listener = (try? session.watchExternalChanges()).map { signal in
            Task.detached { for await _ in signal.commits { RawTerminal.wakeForCommit() } }
        }
        defer { listener?.cancel() }
        do {
            let (code, farewell) = try loop(screen, terminal: terminal, progress: progress)
            terminal.leave()
            if !farewell.isEmpty { messages.write(farewell); messages.flush() }
            return code
        } catch {
            terminal.leave()
            session.close()
            throw error
        }
    }

    private func loop(_ screen: FormScreen, terminal: RawTerminal, progress: EditProgress) throws -> (ExitCode, String) {
        var shown: ScreenBuffer? = nil
        var decoder = KeyDecoder()
        while true {
            let size = terminal.size
            let next = screen.render(width: size.width, height: size.height)
            if shown != next {
                terminal.write(ScreenBuffer.changes(from: shown, to: next, color: color))
                shown = next
            }
            var keys: [Key] = []
            // While changes are unsaved the screen is drawn again each second with no key pressed, so
            // an autosave that found nowhere to keep the draft is said at once (`FormScreen.keepsNoDraft`).
            switch terminal.next(timeout: decoder.isHolding ? 40 : screen.awaitsDraftOutcome ? 1000 : -1) {
            case .bytes(let bytes): keys = decoder.feed(bytes)
            case .timeout: keys = decoder.flush()
            case .resized, .resumed:
                terminal.write("\u{1B}[H\u{1B}[2J")
                shown = nil
            case .commit:
                break
            case .end:
                return interrupted(progress, headline: "The terminal closed")
            }
            try screen.takeExternalChanges()
            progress.update(from: session)
            for key in keys {
                let action = try screen.handle(key)
                progress.update(from: session)
                progress.typing = screen.typedNotEntered
                switch action {
                case .none:
                    break
                case .redraw:
                    terminal.write("\u{1B}[H\u{1B}[2J")
                    shown = nil
                case .suspend:
                    terminal.suspend()
                    shown = nil
                case .interrupt:
                    return interrupted(progress, headline: "Interrupted")
                case .quit(let code, let farewell):
                    return (code, farewell + "\n")
                }
            }
        }
    }

    /// Ctrl-C: the draft written now, the notice that says how to resume.
    private func interrupted(_ progress: EditProgress, headline: String) -> (ExitCode, String) {
        // Free mode's field half typed goes into the draft, not lost with the screen.
        let kept = progress.keeping(typed: progress.typing, of: session.form, write: session.makeDraftWriter())
        session.close()
        let (snapshot, fallback, unsaved) = kept ?? (progress.snapshot, session.draftFallback, session.draftSnapshot)
        return (.failure, notice.message(headline, progress: snapshot, fallback: fallback,
                                         unsaved: unsaved?.shownLines(form: session.form) ?? []))
    }
}

@available(*, unavailable)
extension FullScreenEdit: Sendable {}
