import FormBasics
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Opens text in the person's editor and returns what they saved:
/// `$VISUAL`, else `$EDITOR`, else `vi`, run as
/// `/bin/sh -c '<editor> "$1"' sh <file>` so that an editor given with
/// arguments (`code --wait`) works. The file is private (mode 0600) under
/// `$TMPDIR` and removed afterwards — also when a signal ends the command
/// while the editor runs (`endRunningEditor()`, called by the signal trap):
/// the document holds record values and must not stay behind in `$TMPDIR`,
/// nor the editor run on, orphaned.
struct EditorLauncher: Sendable {
    var environment: [String: String]

    /// The editor running now, its document and the text it was opened with,
    /// for a signal handler to end.
    private static let running = Mutex<(pid: pid_t, path: String, opened: String)?>(nil)
    /// The editors a signal handler ended (`endRunningEditor()`), told apart
    /// by process: the edit waiting for one knows it was not a failure.
    private static let ended = Mutex<Set<pid_t>>([])

    /// A document a signal cut short: the text it was opened with, and what the
    /// file held when the editor was ended (what the person had saved so far).
    struct CutShort: Sendable {
        var opened: String
        var saved: String
    }

    /// The editor ended with a failure (an exit status other than 0, or a
    /// signal: a crash, a `kill`): what it said, and the document as it left
    /// it, which may hold what the person typed before it ended.
    struct Failed: Error, Sendable {
        var message: String
        var document: CutShort
    }

    /// Ends the editor that is running, if any (SIGTERM, as a shell's `kill`
    /// would), reads its document and removes it. Safe from any thread, and to
    /// call twice; `nil` when no editor was running.
    @discardableResult
    static func endRunningEditor() -> CutShort? {
        guard let editor = running.withLock({ current -> (pid: pid_t, path: String, opened: String)? in
            defer { current = nil }
            return current
        }) else { return nil }
        ended.withLock { _ = $0.insert(editor.pid) }
        kill(editor.pid, SIGTERM)
        let saved = FileManager.default.contents(atPath: editor.path).map { String(decoding: $0, as: UTF8.self) }
        unlink(editor.path)
        return CutShort(opened: editor.opened, saved: saved ?? editor.opened)
    }

    /// The editor command line to run.
    var editor: String {
        for name in ["VISUAL", "EDITOR"] {
            if let value = environment[name], !value.trimmingSpaces().isEmpty { return value }
        }
        return "vi"
    }

    /// The document as the editor left it, and the lines (from 1) that are
    /// no UTF-8 text (an editor that saved in another encoding): the text
    /// holds U+FFFD for their bytes, which are not taken as typed.
    ///
    /// - throws: `CLIError.failure` when the editor cannot start; `Failed`
    ///   when it exits with a failure or a signal ends it.
    func edit(_ text: String) throws -> (text: String, notUTF8: [Int]) {
        let path = try makeTemporaryFile(containing: text)
        defer { unlink(path) }

        let process: ChildProcess
        do {
            // `exec`: the shell becomes the editor, so the process a signal ends is the editor itself.
            process = try ChildProcess.spawn("/bin/sh", ["sh", "-c", "exec \(editor) \"$1\"", "sh", path],
                                             environment: environment)
        } catch {
            throw CLIError.failure("cannot start the editor '\(editor)': \(error)")
        }
        Self.running.withLock { $0 = (process.pid, path, text) }
        let ending = process.wait()
        Self.running.withLock { current in
            if current?.pid == process.pid { current = nil }
        }
        let endedBySignal = Self.ended.withLock { $0.remove(process.pid) != nil }
        // A signal handler ended the editor and is keeping the document as a
        // draft; it ends the command when done. Wait for it rather than report
        // an editor that failed.
        if endedBySignal {
            for _ in 0..<100 { usleep(100_000) }
        }
        guard ending == .exited(0) else {
            let how = switch ending {
            case .exited(let code): "exited with status \(code)"
            case .signalled(let signal): "was ended by signal \(signal)" + (Self.signalNames[signal].map { " (\($0))" } ?? "")
            }
            let saved = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
            throw Failed(message: "the editor '\(editor)' \(how)", document: CutShort(opened: text, saved: saved ?? text))
        }
        guard var data = FileManager.default.contents(atPath: path) else {
            throw CLIError.failure("cannot read back '\(path)' after editing")
        }
        // An editor that saves UTF-8 with a byte order mark (Notepad's habit) means no text by it.
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data.removeFirst(3) }
        return (String(decoding: data, as: UTF8.self), Self.linesNotUTF8(data))
    }

    /// A signal's usual name (`SIGINT`), else `signal N`.
    static func signalName(_ signal: Int32) -> String { signalNames[signal] ?? "signal \(signal)" }

    /// The usual names of the signals that end an editor.
    private static let signalNames: [Int32: String] = [
        SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGABRT: "SIGABRT", SIGKILL: "SIGKILL",
        SIGSEGV: "SIGSEGV", SIGTERM: "SIGTERM", SIGBUS: "SIGBUS", SIGPIPE: "SIGPIPE",
    ]

    /// The lines (from 1) of `data` that are no UTF-8 text.
    static func linesNotUTF8(_ data: Data) -> [Int] {
        guard String(validating: data, as: UTF8.self) == nil else { return [] }
        return data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated()
            .filter { String(validating: $0.element, as: UTF8.self) == nil }.map { $0.offset + 1 }
    }

    private func makeTemporaryFile(containing text: String) throws -> String {
        var directory = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        if directory.hasSuffix("/") { directory.removeLast() }
        var template = Array("\(directory)/formstore-edit-XXXXXX.txt".utf8CString)
        // mkstemps creates the file with mode 0600.
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
        guard fd >= 0 else {
            throw CLIError.storage("cannot create a temporary file in \(directory): \(String(cString: strerror(errno)))")
        }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                unlink(path)
                throw CLIError.storage("cannot write \(path): \(reason)")
            }
            offset += written
        }
        close(fd)
        return path
    }
}
