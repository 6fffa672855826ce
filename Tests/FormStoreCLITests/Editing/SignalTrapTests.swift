import Foundation
import Synchronization
import Testing
import FormCore
@testable import FormStoreCLI
#if canImport(Glibc)
import Glibc
#endif

@Suite(.serialized) struct SignalTrapTests {
    /// What the trap would have written and exited with.
    private final class Finished: Sendable {
        let result = Mutex<(message: String, code: Int32)?>(nil)
        let done = DispatchSemaphore(value: 0)
    }

    @Test func aSignalFlushesTheDraftAndExitsWithOne() throws {
        let store = PeopleStore()
        // A long interval: the draft is written only by the flush.
        let slow = DraftAutosaver.Policy(interval: .seconds(3600), fallback: nil)
        let edited = try FormSession.open(store.form, key: PeopleStore.key, backend: store.backend,
                                          drafts: store.backend, autosave: slow)
        try edited.set("name", input: "Bob")   // the first write goes at once...
        try edited.set("name", input: "Bobby") // ...the second waits for the interval
        let progress = EditProgress()
        progress.update(from: edited)
        let flush = edited.makeDraftFlusher()
        let notice = ResumeNotice(form: "people", key: PeopleStore.key)

        // Twice: a second trap in the same process catches as well as the first.
        for _ in 1...2 {
            let finished = Finished()
            let trap = SignalTrap.install(signals: [SIGUSR2], finish: { message, code in
                finished.result.withLock { $0 = (message, code) }
                finished.done.signal()
            }) { _ in
                (notice.message("Interrupted", progress: progress.snapshot, fallback: flush()), .failure)
            }
            kill(getpid(), SIGUSR2)
            #expect(finished.done.wait(timeout: .now() + 30) == .success)
            trap.remove()

            let result = try #require(finished.result.withLock { $0 })
            #expect(result.code == 1)
            #expect(result.message == """
            Interrupted: your changes are kept as a draft.
            To resume, run: formstore edit people 1  (the draft is offered)

            """)
        }
        #expect(store.drafts.first?.values["name"] == .text("Bobby"))
    }

    /// A save that failed (a lock) says where the draft is, and names the
    /// secure fields changed, which no draft keeps, to be typed again: a new
    /// password was dropped without a word.
    @Test func aFailedSavesDetailsNameTheSecretsToTypeAgain() {
        let notice = ResumeNotice(form: "people", key: RecordKey("id", .int(1)))
        var both = EditProgress.Snapshot()
        both.hasUnsavedChanges = true
        both.hasDraftableChanges = true
        both.secureFieldsChanged = ["Password"]
        #expect(notice.draftDetails(fallback: nil, progress: both) == [
            "your changes are kept as a draft; to resume, run: formstore edit people 1",
            "secret fields are never kept in drafts; type again: Password",
        ])
        var secretOnly = both
        secretOnly.hasDraftableChanges = false
        #expect(notice.draftDetails(fallback: nil, progress: secretOnly) == [
            "secret fields are never kept in drafts, so there is no draft; type again: Password",
        ])
        var plain = both
        plain.secureFieldsChanged = []
        #expect(notice.draftDetails(fallback: nil, progress: plain) == [
            "your changes are kept as a draft; to resume, run: formstore edit people 1",
        ])
    }

    @Test func resumeCommandsAreShellQuoted() {
        #expect(ResumeNotice(form: "people", key: RecordKey("id", .int(3))).command == "formstore edit people 3")
        // An edit in $EDITOR resumes there: its document restores the draft too.
        #expect(ResumeNotice(form: "people", key: RecordKey("id", .int(3)), editor: true).command
            == "formstore edit people 3 --editor")
        #expect(ResumeNotice(form: "order items", key: RecordKey(columns: ["a", "b"], values: [.int(1), .text("x y")])).command
            == "formstore edit 'order items' 'a=1,b=x y'")
        #expect(ResumeNotice(form: "it's", key: nil).command == "formstore drafts 'it'\\''s'")
    }
}
