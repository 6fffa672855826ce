import FormStoreTestSupport
import Foundation
import FormCore
@testable import FormStoreCLI

/// People record 1 in memory, with drafts kept beside it (never in files).
struct PeopleStore {
    let backend = MemoryBackend(keyColumns: ["id"])
    let form: Form
    static let key = RecordKey("id", .int(1))
    static let noFallback = DraftAutosaver.Policy(fallback: nil)

    init(mode: EditMode = .save, adjust: (inout Form) -> Void = { _ in }) {
        var form = peopleForm()
        form.mode = mode
        adjust(&form)
        self.form = form
        backend.put(["id": .int(1), "name": .text("Ann"), "colour": .text("red"), "born": .null,
                     "notes": .null, "password": .null])
    }

    /// Opens record 1 as `formstore edit` would.
    func open() throws -> FormSession {
        try FormSession.open(form, key: Self.key, backend: backend, drafts: backend, autosave: Self.noFallback)
    }

    /// Someone else saves `changes` to record 1.
    func otherWriter(_ changes: [String: FieldValue]) {
        var values = backend.record(Self.key)!.values
        values.merge(changes) { $1 }
        backend.put(values)
    }

    func stored(_ field: String) -> FieldValue? {
        backend.record(Self.key)?.values[field]
    }

    var drafts: [Draft] { (try? backend.drafts(form: form.name)) ?? [] }
}

/// A prompt edit fed with `lines`; what it printed comes back with the code.
func promptEdit(_ session: FormSession, _ lines: [String]) throws -> (code: ExitCode, text: String) {
    let output = BufferSink()
    let edit = PromptEdit(session: session, prompter: Prompter(input: ScriptedLines(lines), output: output),
                          catchesSignals: false)
    let code = try edit.run()
    return (code, output.text)
}

/// A `$EDITOR` that applies one shell step per invocation to the file
/// (`nil`: leaves it unchanged) and keeps a copy of each document it was given.
final class ScriptedEditor {
    private let scratch: TemporaryDirectory
    let launcher: EditorLauncher

    init(_ steps: [String?]) throws {
        scratch = try TemporaryDirectory()
        let dir = scratch.path
        for (i, step) in steps.enumerated() {
            if let step { try step.write(toFile: "\(dir)/step-\(i + 1).sh", atomically: true, encoding: .utf8) }
        }
        let editor = try scratch.script("editor", """
        n=$(( $(cat '\(dir)/count' 2>/dev/null || echo 0) + 1 ))
        echo $n > '\(dir)/count'
        cp "$1" "\(dir)/seen-$n.txt"
        if [ -f "\(dir)/step-$n.sh" ]; then . "\(dir)/step-$n.sh"; fi
        """)
        // Read by sh, not executed: a script just written may still be open in a
        // child another test is forking ("Text file busy").
        launcher = EditorLauncher(environment: ["EDITOR": "/bin/sh '\(editor)'", "TMPDIR": dir,
                                                "PATH": "/usr/bin:/bin"])
    }

    /// How many times the editor ran.
    var invocations: Int {
        (try? String(contentsOfFile: scratch.path + "/count", encoding: .utf8))
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
    }

    /// The document the editor was given on its `n`th run (from 1).
    func seen(_ n: Int) -> String {
        (try? String(contentsOfFile: "\(scratch.path)/seen-\(n).txt", encoding: .utf8)) ?? ""
    }

    /// Runs an editor edit of `session`; returns the code and the messages.
    func edit(_ session: FormSession) throws -> (code: ExitCode, text: String) {
        let messages = BufferSink()
        let code = try EditorEdit(session: session, launcher: launcher, messages: messages,
                                  catchesSignals: false).run()
        return (code, messages.text)
    }
}
