import FormStoreTestSupport
import Foundation
import Testing

/// The built `formstore` running in a real terminal: a tmux pane on a server
/// of its own (`tmux -L <unique socket>`), typed into with `send-keys` and
/// read with `capture-pane`, as a person at a terminal would use it.
///
/// The pane runs a script that records `stty -a` before and after the
/// command, and the command's exit code, so a test can see that the terminal
/// came back as it was.
final class TerminalPane {
    let database: DemoDatabase
    let socket = "formstore-test-" + UUID().uuidString.prefix(8)
    private let folder: String

    /// Starts `formstore --db … --forms … arguments` in a `width`x`height` pane.
    /// - parameter jobControl: the pane's shell runs the command as a job (`set -m`),
    ///   as an interactive shell does, so Ctrl-Z stops it; while it is stopped
    ///   the shell records `stty -a` (`stoppedSettings()`) and waits for `resume()` to `fg` it.
    init(_ database: DemoDatabase, _ arguments: [String], width: Int = 100, height: Int = 30,
         environment: [String: String] = [:], jobControl: Bool = false) throws {
        self.database = database
        folder = database.scratch.path + "/pane-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let binary = try formstoreBinary()
        let words = [binary, "--db", database.path, "--forms", database.formsDirectory] + arguments
        let exports = (["XDG_STATE_HOME": database.stateDirectory].merging(environment) { $1 })
            .map { "export \($0.key)=\(Self.quote($0.value))" }.joined(separator: "\n")
        let script = try database.scratch.script("pane-\(socket).sh", """
            cd \(Self.quote(folder))
            \(exports)
            stty -a > before
            \(jobControl ? "set -m" : "")
            sh -c 'echo $$ > pid; exec "$@"' sh \(words.map(Self.quote).joined(separator: " "))
            code=$?
            jobs > jobs
            while [ -s jobs ]; do
                stty -a > stopped.tmp && mv stopped.tmp stopped
                while [ ! -e resume ]; do sleep 0.05; done
                rm -f resume stopped
                fg >/dev/null
                code=$?
                jobs > jobs
            done
            echo $code > code.tmp && mv code.tmp code
            stty -a > after
            exec sleep 600
            """)
        try tmux(["new-session", "-d", "-x", "\(width)", "-y", "\(height)", script])
        _ = try waitFor { FileManager.default.fileExists(atPath: self.folder + "/pid") }
    }

    deinit { _ = try? tmux(["kill-server"]) }

    /// Keys as tmux names them: `Tab`, `BTab`, `Enter`, `Escape`, `C-s`, `Up`.
    func press(_ keys: String...) throws {
        for key in keys { try tmux(["send-keys", "-t", "0", key]) }
    }

    /// Text typed as it is.
    func type(_ text: String) throws {
        try tmux(["send-keys", "-t", "0", "-l", "--", text])
    }

    /// The screen now, one line a row, trailing blanks removed.
    func screen() throws -> String {
        let lines = try tmux(["capture-pane", "-p", "-t", "0"]).split(separator: "\n", omittingEmptySubsequences: false)
        return lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n")
            .trimmingCharacters(in: .newlines)
    }

    /// The screen once it shows `text` and has stopped changing.
    @discardableResult
    func screen(showing text: String) throws -> String {
        var last = ""
        let seen = try waitFor {
            last = (try? self.screen()) ?? ""
            return last.contains(text)
        }
        if !seen {
            Issue.record("the screen never showed \(text.debugDescription); it shows:\n\(last)")
            return last
        }
        // Settled: two captures alike.
        var previous = last
        for _ in 0..<20 {
            Thread.sleep(forTimeInterval: 0.05)
            let now = try screen()
            if now == previous { return now }
            previous = now
        }
        return previous
    }

    /// The command's exit code, once it ended.
    func exitCode() throws -> Int32? {
        guard try waitFor({ FileManager.default.fileExists(atPath: self.folder + "/code") }) else { return nil }
        return Int32(try String(contentsOfFile: folder + "/code", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// `stty -a` before the command and after it ended.
    func terminalSettings() throws -> (before: String, after: String) {
        _ = try waitFor { FileManager.default.fileExists(atPath: self.folder + "/after") }
        Thread.sleep(forTimeInterval: 0.1)
        return (try String(contentsOfFile: folder + "/before", encoding: .utf8),
                try String(contentsOfFile: folder + "/after", encoding: .utf8))
    }

    /// `stty -a` of the pane's terminal now (while the command runs or is stopped).
    func currentSettings() throws -> String {
        let tty = try tmux(["display-message", "-p", "-t", "0", "#{pane_tty}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let output = folder + "/stty-now"
        _ = system("stty -a -F " + Self.quote(tty) + " >" + Self.quote(output) + " 2>&1")
        return try String(contentsOfFile: output, encoding: .utf8)
    }

    /// `stty -a` as the pane's script found it, before the command began.
    func settingsBefore() throws -> String {
        try String(contentsOfFile: folder + "/before", encoding: .utf8)
    }

    /// `stty -a` as the shell found the terminal when the command stopped; `nil` if it never stopped.
    func stoppedSettings() throws -> String? {
        guard try waitFor({ FileManager.default.fileExists(atPath: self.folder + "/stopped") }) else { return nil }
        return try String(contentsOfFile: folder + "/stopped", encoding: .utf8)
    }

    /// The shell brings the stopped command back to the foreground (`fg`).
    func resume() throws {
        _ = FileManager.default.createFile(atPath: folder + "/resume", contents: nil)
    }

    /// Sends a signal to the command (not to the pane's shell).
    func signal(_ signo: Int32) throws {
        let pid = try #require(Int32(try String(contentsOfFile: folder + "/pid", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(pid, signo)
    }

    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", "0", "-x", "\(width)", "-y", "\(height)"])
    }

    /// Runs tmux through `system(3)`, its output to a file: the tmux server
    /// forks from the first client and keeps what it inherited open, which
    /// `Process` would wait on.
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let output = folder + "/tmux-output"
        let command = (["tmux", "-L", socket] + arguments).map(Self.quote).joined(separator: " ")
            + " >" + Self.quote(output) + " 2>&1 </dev/null"
        let status = system(command)
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        guard status == 0 || arguments == ["kill-server"] else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "tmux \(arguments): \(text)"])
        }
        return text
    }

    /// Polls `condition` for up to 15 seconds.
    private func waitFor(_ condition: () throws -> Bool) throws -> Bool {
        for _ in 0..<300 {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    private static func quote(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// Screens kept as text files under Tests/FormStoreCLITests/Golden: a test
/// compares what the terminal shows with the file. `FORMSTORE_UPDATE_GOLDEN=1`
/// writes the files instead (then read them, as a user would, before committing).
enum GoldenScreen {
    static let folder = packageRoot + "/Tests/FormStoreCLITests/Golden"

    static func check(_ screen: String, _ name: String, normalising replacements: [(String, String)] = [],
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        var text = screen
        for (pattern, replacement) in replacements {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        let file = folder + "/" + name + ".txt"
        if ProcessInfo.processInfo.environment["FORMSTORE_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try (text + "\n").write(toFile: file, atomically: true, encoding: .utf8)
            return
        }
        let golden = try? String(contentsOfFile: file, encoding: .utf8)
        #expect(golden == text + "\n", "screen \(name) differs from \(file):\n\(text)", sourceLocation: sourceLocation)
    }
}
