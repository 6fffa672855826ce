import Foundation
import Testing
import FormCore
@testable import FormStoreCLI

@Suite struct PromptEditTests {
    @Test func enterKeepsEveryValue() throws {
        let store = PeopleStore()
        let (code, text) = try promptEdit(try store.open(), ["", "", "", "", ""])
        #expect(code == .success)
        #expect(text.contains("Name (required) [Ann]: "))
        #expect(text.hasSuffix("No changes made.\n"))
        #expect(store.backend.writeCount == 0)
        #expect(store.drafts.isEmpty)
    }

    @Test func anInvalidValueIsAskedAgainWithItsError() throws {
        let store = PeopleStore()
        let (code, text) = try promptEdit(try store.open(), ["", "", "31/12/1999", "1999-12-31", "", "", "y"])
        #expect(code == .success)
        // The same question again, its error first, with what Enter gives: the value the field had.
        #expect(text.contains("Born:   ! Born is not a valid date\nBorn: Notes: "))
        #expect(text.contains("  Born: (null) → 1999-12-31\n"))
        #expect(store.stored("born") != .null)
    }

    @Test func aStoredValueBreakingARuleOnAnUntouchedFieldIsOnlyAWarning() throws {
        let store = PeopleStore()
        let long = String(repeating: "x", count: 41)
        store.otherWriter(["name": .text(long)])
        let (code, text) = try promptEdit(try store.open(), ["", "", "", "hello", "", "y"])
        #expect(code == .success)
        #expect(text.hasSuffix("Saved: Notes.\n  warning: Name must be at most 40 characters (stored so; left unchanged)\n"))
        #expect(store.stored("notes") == .text("hello"))
        #expect(store.stored("name") == .text(long))
    }

    /// The brackets write a value as an answer is read (`ValueEscapes`): a
    /// line break `\n`, a backslash `\\`. A note of two lines showed
    /// `\n`, and the same typed back was stored as a backslash and an `n`.
    @Test func answersReadTheEscapesTheBracketsWrite() throws {
        let store = PeopleStore()
        store.otherWriter(["notes": .text("line one\nline two C:\\temp")])
        let (code, text) = try promptEdit(try store.open(), ["", "", "", #"line one\nline two C:\\temp!\tend \d+"#, "", "y"])
        #expect(code == .success)
        #expect(text.contains(#"Notes [line one\nline two C:\\temp]: "#), "\(text)")
        #expect(store.stored("notes") == .text("line one\nline two C:\\temp!\tend \\d+"))
    }

    @Test func tooLongANameIsRefusedThenFixed() throws {
        let store = PeopleStore()
        let long = String(repeating: "x", count: 41)
        let (code, text) = try promptEdit(try store.open(), [long, "Bob", "", "", "", "", "y"])
        #expect(code == .success)
        #expect(text.hasPrefix(Prompter.inputHelp + "\nName (required) [Ann]:   ! "))
        #expect(text.contains("Name (required) [Ann]: Favourite colour [Red]:"))
        #expect(store.stored("name") == .text("Bob"))
    }

    /// Enter after a refused answer puts back what the field held, as the
    /// brackets say: it kept the refused text and asked again for ever.
    @Test func enterAfterARefusedAnswerPutsBackTheValue() throws {
        let store = PeopleStore()
        let (code, text) = try promptEdit(try store.open(), ["", "", "someday", "", "", "", ""])
        #expect(code == .success)
        #expect(text.contains("Born:   ! Born is not a valid date\nBorn: Notes: "))
        #expect(text.hasSuffix("No changes made.\n"), "\(text)")
        #expect(store.drafts.isEmpty)
    }

    @Test func backslashUUndoesTheLastChangeAndBackslashRRedoesIt() throws {
        let store = PeopleStore()
        let (code, text) = try promptEdit(try store.open(), ["Bob", #"\u"#, "", "", "", "", ""])
        #expect(code == .success)
        #expect(text.contains("  Undone: Name: Ann.\n"))
        #expect(text.hasSuffix("No changes made.\n"))
        #expect(store.backend.writeCount == 0)

        let again = PeopleStore()
        let (redone, shown) = try promptEdit(try again.open(), ["Bob", #"\u"#, #"\r"#, #"\r"#, "", "", "", "", "y"])
        #expect(redone == .success)
        #expect(shown.contains("  Redone: Name: Bob.\n"))
        #expect(shown.contains("  Nothing to redo.\n"))
        #expect(again.stored("name") == .text("Bob"))
    }

    @Test func choicesAreTakenByNumber() throws {
        let store = PeopleStore()
        let (code, text) = try promptEdit(try store.open(), ["", "2", "", "", "", "y"])
        #expect(code == .success)
        #expect(text.contains("  1) Red\n  2) Green\n  3) Blue\nNumber or label: "))
        #expect(store.stored("colour") == .text("green"))
    }

    @Test func saveModeSummarisesThenSaves() throws {
        let store = PeopleStore()
        let (code, text) = try promptEdit(try store.open(), ["Bob", "3", "", "", "s3cret", "y"])
        #expect(code == .success)
        #expect(text.contains("""
        Changes:
          Name: Ann → Bob
          Favourite colour: Red → Blue
          Password: (null) → ••••
        Save changes? [Y/n] Saved: Name, Favourite colour, Password.
        """))
        #expect(!text.contains("s3cret"))
        #expect(store.stored("name") == .text("Bob"))
        #expect(store.stored("password") == .text("s3cret"))
    }

    @Test func declinedSaveWarnsThenDiscards() throws {
        let store = PeopleStore()
        let (code, text) = try promptEdit(try store.open(), ["Bob", "", "", "", "", "n", "y"])
        #expect(code == .success)
        #expect(text.contains("Save changes? [Y/n] \(Form.defaultUnsavedChangesWarning) [y/N] Changes discarded.\n"))
        #expect(store.stored("name") == .text("Ann"))
        #expect(store.drafts.isEmpty)
    }

    @Test func notConfirmingTheWarningGoesBackToTheFields() throws {
        let store = PeopleStore()
        let lines = ["Bob", "", "", "", "", "n", "n", "Cy", "", "", "", "", "y"]
        let (code, text) = try promptEdit(try store.open(), lines)
        #expect(code == .success)
        #expect(text.contains("Name (required) [Bob]: "))
        #expect(store.stored("name") == .text("Cy"))
    }

    @Test func freeModeSavesEachFieldAsEntered() throws {
        let store = PeopleStore(mode: .free)
        let (code, text) = try promptEdit(try store.open(), ["Bob", "2", "", "", ""])
        #expect(code == .success)
        #expect(text.contains("  Saved Name.\n"))
        #expect(text.contains("  Saved Favourite colour.\n"))
        #expect(!text.contains("Save changes?"))
        #expect(store.stored("name") == .text("Bob"))
        #expect(store.stored("colour") == .text("green"))
    }

    @Test func editModeShowsTheRecordAndAsksToBegin() throws {
        let store = PeopleStore(mode: .edit)
        let (code, text) = try promptEdit(try store.open(), ["y", "Bob", "", "", "", "", "y"])
        #expect(code == .success)
        #expect(text.hasPrefix("people 1 (People):\n  ID: 1\n  Name: Ann\n  Favourite colour: Red\n"))
        #expect(text.contains("Begin editing? [Y/n] \(Prompter.inputHelp)\nName (required) [Ann]: "))
        #expect(store.stored("name") == .text("Bob"))
    }

    @Test func editModeNotBegunChangesNothing() throws {
        let store = PeopleStore(mode: .edit)
        let (code, text) = try promptEdit(try store.open(), ["n"])
        #expect(code == .success)
        #expect(text.hasSuffix("Begin editing? [Y/n] No changes made.\n"))
    }

    @Test func frozenFormsAskOnlyTheFieldsEnabledWhenNotEditing() throws {
        let store = PeopleStore(mode: .frozen) { form in
            form.sections[0].fields[4].enabledWhenNotEditing = true  // notes
        }
        let (code, text) = try promptEdit(try store.open(), ["Call back", "y"])
        #expect(code == .success)
        #expect(text.hasPrefix("people is frozen: only Notes can be changed.\n\(Prompter.inputHelp)\nNotes: (Anything else) "))
        #expect(!text.contains("Name"))
        #expect(store.stored("notes") == .text("Call back"))
    }

    @Test func aFrozenFormWithNothingToChangeIsRefused() throws {
        let store = PeopleStore(mode: .frozen)
        #expect(throws: CLIError.validation("people is frozen: its records cannot be changed")) {
            try promptEdit(try store.open(), [])
        }
    }

    @Test func endOfInputKeepsADraftAndSaysHowToResume() throws {
        let store = PeopleStore()
        let (code, text) = try promptEdit(try store.open(), ["Bob", "3"])
        #expect(code == .failure)
        #expect(text.hasSuffix("""
        End of input: your changes are kept as a draft.
        To resume, run: formstore edit people 1  (the draft is offered)

        """))
        let draft = try #require(store.drafts.first)
        #expect(draft.values == ["name": .text("Bob"), "colour": .text("blue")])
        #expect(store.stored("name") == .text("Ann"))
    }

    @Test func endOfInputWithNothingChangedSaysSo() throws {
        let store = PeopleStore()
        let (code, text) = try promptEdit(try store.open(), [""])
        #expect(code == .failure)
        #expect(text.hasSuffix("End of input: no unsaved changes.\n"))
        #expect(store.drafts.isEmpty)
    }

    @Test func aSecretTypedBeforeTheEndIsNamedAsNotKept() throws {
        let store = PeopleStore()
        let (_, text) = try promptEdit(try store.open(), ["Bob", "", "", "", "hunter2"])
        #expect(text.contains("Secret fields are never kept in drafts; type again: Password.\n"))
        #expect(store.drafts.first?.values["password"] == nil)
    }

    /// Only a secret typed: no draft keeps it, so none is promised.
    @Test func aSecretAloneLeavesNoDraftAndSaysSo() throws {
        let store = PeopleStore()
        let (_, text) = try promptEdit(try store.open(), ["", "", "", "", "hunter2"])
        #expect(text.hasSuffix("End of input: nothing was saved; secret fields are never kept in drafts, so there is no draft. "
                               + "Type again: Password.\n"), "\(text)")
        #expect(!text.contains("To resume"))
        #expect(store.drafts.isEmpty)
    }

    @Test func aDraftIsOfferedAndRestoredWithAConflictChoice() throws {
        let store = PeopleStore()
        // An edit that ended early left a draft: name and colour changed.
        _ = try promptEdit(try store.open(), ["Bob", "2"])
        // Meanwhile someone else changed the name (a conflict) and the notes (none).
        store.otherWriter(["name": .text("Anne"), "notes": .text("VIP")])

        let session = try store.open()
        #expect(session.offeredDrafts.count == 1)
        // Restore; take theirs for the name; keep every field; save.
        let (code, text) = try promptEdit(session, ["y", "n", "", "", "", "", "", "y"])
        #expect(code == .success)
        #expect(text.contains("There is an unsaved draft of this record from "))
        #expect(text.contains("(Favourite colour, Name).\nRestore it? [Y/n] Restored: Favourite colour.\n"))
        #expect(text.contains("  Name: was Ann, yours Bob, theirs Anne\nKeep yours for Name? (no takes theirs) [Y/n] "))
        #expect(store.stored("name") == .text("Anne"))
        #expect(store.stored("colour") == .text("green"))
        #expect(store.stored("notes") == .text("VIP"))
        #expect(store.drafts.isEmpty)
    }

    /// Input that ends at the question of a restored draft's conflict keeps
    /// the draft, yours and its base, so the same question comes next time:
    /// the draft was deleted before the choice ("no unsaved changes"), and
    /// what was typed lost. Taking theirs settles it.
    @Test func quittingAtADraftsConflictKeepsTheDraft() throws {
        let store = PeopleStore()
        _ = try promptEdit(try store.open(), ["Bob"])
        store.otherWriter(["name": .text("Anne")])
        let (_, text) = try promptEdit(try store.open(), ["y"])
        #expect(text.hasSuffix("End of input: your changes are kept as a draft.\n"
                               + "To resume, run: formstore edit people 1  (the draft is offered)\n"), "\(text)")
        #expect(store.drafts.count == 1 && store.drafts.first?.values["name"] == .text("Bob"), "\(store.drafts)")
        #expect(store.drafts.first?.base["name"] == .text("Ann"))
        // Offered again with the same choice; theirs taken, nothing else changed: no draft is left.
        let (code, again) = try promptEdit(try store.open(), ["y", "n", "", "", "", "", "", "y"])
        #expect(code == .success && again.contains("  Name: was Ann, yours Bob, theirs Anne\n"), "\(again)")
        #expect(store.stored("name") == .text("Anne"))
        #expect(store.drafts.isEmpty, "\(store.drafts)")
    }

    @Test func keepingYoursFromADraftSavesYours() throws {
        let store = PeopleStore()
        _ = try promptEdit(try store.open(), ["Bob"])
        store.otherWriter(["name": .text("Anne")])
        let (code, _) = try promptEdit(try store.open(), ["", "", "", "", "", "", "", "y"])
        #expect(code == .success)
        #expect(store.stored("name") == .text("Bob"))
    }

    @Test func aDraftOfFieldsTheFormNoLongerHasSaysSo() throws {
        let store = PeopleStore()
        let old = Draft(id: "d1", form: "people", recordKey: PeopleStore.key, formVersion: 0,
                        base: ["name": .text("Ann")], baseVersion: nil,
                        values: ["nickname": .text("Annie"), "name": .text("Annabel")], inputs: [:])
        try store.backend.writeDraft(old)
        let (code, text) = try promptEdit(try store.open(), ["y", "", "", "", "", "", "y"])
        #expect(code == .success)
        #expect(text.contains("No longer on the form, left out: nickname.\n"))
        #expect(store.stored("name") == .text("Annabel"))
    }

    @Test func aConflictOnSaveIsResolvedFieldByField() throws {
        let store = PeopleStore()
        let session = try store.open()
        store.otherWriter(["name": .text("Anne")])
        // Change name and colour; save; the name conflicts: take theirs; save the colour.
        let (code, text) = try promptEdit(session, ["Bob", "2", "", "", "", "y", "n", "y"])
        #expect(code == .success)
        #expect(text.contains("Not saved: someone else changed this field since you began:\n"
            + "  Name: was Ann, yours Bob, theirs Anne\n"))
        #expect(text.contains("Changes:\n  Favourite colour: Red → Green\nSave changes? [Y/n] Saved: Favourite colour.\n"))
        #expect(store.stored("name") == .text("Anne"))
        #expect(store.stored("colour") == .text("green"))
    }

    @Test func saveErrorsSendThePersonBackToTheFields() throws {
        let store = PeopleStore { form in
            form.validationTiming = .onSave
        }
        // An empty name passes the prompt (checked on save), fails the save, is asked again.
        let session = try store.open()
        try session.set("name", input: "")
        let (code, text) = try promptEdit(session, ["", "", "", "", "", "y", "Bea", "y"])
        #expect(code == .success)
        #expect(text.contains("Not saved:\n  ! Name: "))
        #expect(store.stored("name") == .text("Bea"))
    }
}
