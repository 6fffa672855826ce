import Foundation
import Testing
@testable import FormStoreCLI

/// The full-screen form on a live record (tmux): undo and redo keys, and
/// another process's commit reaching the open screen.
@Suite(.serialized) struct FullScreenLiveTests {
    @Test func aRunOfTypingIsUndoneAndRedoneAsOneStepAndASaveIsUndoneBySaving() throws {
        let database = try DemoDatabase()
        let pane = try TerminalPane(database, ["edit", "signup", "1"])
        try pane.screen(showing: "Sign Up")
        try pane.press("Tab", "End")
        try pane.type("son")
        try pane.screen(showing: "M-z undo")
        try pane.press("M-z")
        try GoldenScreen.check(try pane.screen(showing: "Undone: Last Name: Lee."), "signup-undone")
        #expect(try pane.screen().contains("Last Name   Lee\n"))
        try pane.press("C-y")
        try GoldenScreen.check(try pane.screen(showing: "Redone: Last Name: Leeson."), "signup-redone")
        try pane.press("C-s")
        try pane.screen(showing: "Saved: Last Name.")
        #expect(try stored(database, "SELECT lastName FROM signups WHERE id = 1") == "Leeson\n")
        try pane.press("M-z")
        try pane.screen(showing: "Undone and saved: Last Name: Lee.")
        #expect(try stored(database, "SELECT lastName FROM signups WHERE id = 1") == "Lee\n")
        try pane.press("M-z")
        try pane.screen(showing: "Nothing to undo.")
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
    }

    @Test func anotherProcessesCommitReachesTheOpenScreen() throws {
        let database = try DemoDatabase()
        let pane = try TerminalPane(database, ["edit", "signup", "1"])
        try pane.screen(showing: "Sign Up")
        _ = try stored(database, "UPDATE signups SET firstName = 'Anne' WHERE id = 1")
        try GoldenScreen.check(try pane.screen(showing: "Changed by someone else: First Name → Anne."),
                               "signup-changed-by-another")
        #expect(try pane.screen().contains("First Name  Anne\n"))
        // The field shows what is stored now: typing goes on from there.
        try pane.press("End")
        try pane.type("tte")
        try pane.screen(showing: "Annette")
        try pane.press("C-s")
        try pane.screen(showing: "Saved: First Name.")
        #expect(try stored(database, "SELECT firstName FROM signups WHERE id = 1") == "Annette\n")
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
    }

    @Test func aDirtyFieldChangedUnderneathIsMarkedAndResolvedBeforeSave() throws {
        let database = try DemoDatabase()
        let pane = try TerminalPane(database, ["edit", "signup", "1"])
        try pane.screen(showing: "Sign Up")
        try pane.press("Tab", "End")
        try pane.type("-Smith")
        try pane.screen(showing: "Lee-Smith")
        _ = try stored(database, "UPDATE signups SET lastName = 'Li' WHERE id = 1")
        try GoldenScreen.check(try pane.screen(showing: "Also changed by someone else: Last Name"),
                               "signup-changed-underneath")
        #expect(try pane.screen().contains("changed by someone else: Ctrl-S to choose"))
        try pane.press("C-s")
        try pane.screen(showing: "someone else changed")
        #expect(try pane.screen().contains("Lee   Lee-Smith   Li"))
        try pane.press("Right", "Enter")
        try pane.screen(showing: "Conflicts resolved.")
        #expect(try pane.screen().contains("Last Name   Li\n"))
        #expect(!(try pane.screen()).contains("changed by someone else"))
        try pane.press("Escape")
        #expect(try pane.exitCode() == 0)
        #expect(try stored(database, "SELECT lastName FROM signups WHERE id = 1") == "Li\n")
    }

    /// A statement run by another process, as another application would (waiting for the lock).
    private func stored(_ database: DemoDatabase, _ sql: String) throws -> String {
        try sqlite3(database.path, [], input: ".timeout 10000\n\(sql);\n")
    }
}
