import Foundation
import Testing
import FormCore
@testable import FormStoreCLI

@Suite struct EditorEditTests {
    private static func set(_ field: String, _ value: String) -> String {
        "sed -i 's/^\(field): .*/\(field): \(value)/' \"$1\"\n"
    }

    @Test func anUnchangedDocumentCancels() throws {
        let store = PeopleStore()
        let editor = try ScriptedEditor([nil])
        let (code, text) = try editor.edit(try store.open())
        #expect(code == .success)
        #expect(text == "Edit cancelled, no changes made.\n")
        #expect(editor.seen(1).contains("# Name (text, required, at most 40 characters)\nname: Ann\n"))
        #expect(!editor.seen(1).contains("password"))
        #expect(store.backend.writeCount == 0)
    }

    @Test func anEmptyDocumentCancels() throws {
        let store = PeopleStore()
        let editor = try ScriptedEditor([": > \"$1\"\n"])
        let (code, text) = try editor.edit(try store.open())
        #expect(code == .success)
        #expect(text == "Edit cancelled, no changes made.\n")
        #expect(store.stored("name") == .text("Ann"))
    }

    @Test func aChangedValueIsSaved() throws {
        let store = PeopleStore()
        let editor = try ScriptedEditor([Self.set("name", "Bob") + Self.set("colour", "Blue")])
        let (code, text) = try editor.edit(try store.open())
        #expect(code == .success)
        #expect(text == "Saved people 1: Name, Favourite colour.\n")
        #expect(store.stored("name") == .text("Bob"))
        #expect(store.stored("colour") == .text("blue"))
        #expect(editor.invocations == 1)
    }

    @Test func theDocumentSaysWhichFieldsAreHiddenOrDisabledNow() throws {
        let store = PeopleStore { form in
            form.sections[0].fields[4].hiddenWhen = .equals("colour", "red")
            form.sections[0].fields[3].disabledWhen = .all([.isNotEmpty("notes"), .not(.equals("colour", "blue"))])
        }
        let editor = try ScriptedEditor([
            Self.set("notes", "hi"),
            Self.set("colour", "Blue"),
        ])
        let (code, text) = try editor.edit(try store.open())
        #expect(code == .success)
        #expect(text == "Saved people 1: Favourite colour, Notes.\n")
        let first = editor.seen(1)
        #expect(first.contains("# hidden when Favourite colour is \"Red\": hidden now, its value is saved only if your changes show it\nnotes: \n"))
        #expect(first.contains("# disabled when Notes is not empty and Favourite colour is not \"Blue\"\nborn: "))
        // The refusal names the field once.
        let second = editor.seen(2)
        #expect(second.contains("#   Notes (notes) is hidden, so its change cannot be saved: show it or undo the change\n"))
        #expect(store.stored("notes") == .text("hi"))
    }

    @Test func anInvalidDocumentIsReopenedWithItsErrorsThenFixed() throws {
        let store = PeopleStore()
        let editor = try ScriptedEditor([
            Self.set("born", "31\\/12\\/1999") + "echo 'nmae: typo' >> \"$1\"\n",
            "sed -i '/^nmae:/d' \"$1\"\n",
            Self.set("born", "1999-12-31"),
        ])
        let (code, text) = try editor.edit(try store.open())
        #expect(code == .success)
        #expect(text == "Saved people 1: Born.\n")
        #expect(editor.invocations == 3)

        // The unreadable line, numbered as it stands in the reopened document.
        let second = editor.seen(2)
        #expect(second.hasPrefix(EditorDocument.notSavedHeader + "\n#   line "))
        let lines = second.components(separatedBy: "\n")
        let reported = try #require(Int(lines[1].dropFirst("#   line ".count).prefix { $0.isNumber }))
        #expect(lines[reported - 1] == "nmae: typo")
        #expect(second.contains("born: 31/12/1999\n"))

        // The value the form refused, with the person's text kept; the old errors gone.
        let third = editor.seen(3)
        #expect(third.hasPrefix(EditorDocument.notSavedHeader + "\n#   Born (born) is not a valid date"))
        #expect(!third.contains("nmae"))
        #expect(third.components(separatedBy: EditorDocument.notSavedHeader).count == 2)
        #expect(store.stored("born") != .null)
    }

    @Test func leavingTheErrorsUnchangedKeepsADraft() throws {
        let store = PeopleStore()
        let editor = try ScriptedEditor([Self.set("name", "Bob") + Self.set("born", "someday"), nil])
        let (code, text) = try editor.edit(try store.open())
        #expect(code == .validationFailed)
        #expect(text == """
        formstore: people 1: the document still has errors; nothing was saved: Born (born) is not a valid date
        Edit abandoned: your changes are kept as a draft.
        To resume, run: formstore edit people 1  (the draft is offered)

        """)
        let draft = try #require(store.drafts.first)
        #expect(draft.values["name"] == .text("Bob"))
        #expect(draft.inputs["born"] == "someday")
        #expect(store.stored("name") == .text("Ann"))
    }

    /// A field given twice, a line added below the one shown, is refused;
    /// abandoned so, the draft keeps the later line's value, the one typed.
    @Test func aFieldGivenTwiceKeepsTheLaterValueInTheDraft() throws {
        let store = PeopleStore()
        let editor = try ScriptedEditor(["printf 'name: Bob\\n' >> \"$1\"\n", nil])
        let (code, text) = try editor.edit(try store.open())
        #expect(code == .validationFailed)
        #expect(text.contains("'name' is given twice"), "\(text)")
        #expect(text.contains("your changes are kept as a draft"), "\(text)")
        let draft = try #require(store.drafts.first)
        #expect(draft.values["name"] == .text("Bob"), "\(draft)")
        #expect(store.stored("name") == .text("Ann"))
    }

    /// A draft left by an abandoned edit is restored into the next document:
    /// saved as it is, it saves the draft's values, and the draft is gone.
    @Test func aDraftIsRestoredIntoTheDocumentAndSavedAsShown() throws {
        let store = PeopleStore()
        let first = try ScriptedEditor([Self.set("name", "Bob") + Self.set("born", "someday"), nil])
        #expect(try first.edit(try store.open()).code == .validationFailed)
        #expect(store.drafts.count == 1)

        // Saved as shown, the draft's date still cannot be read: the document
        // comes back with that error, and left so, the draft is kept.
        let again = try ScriptedEditor([nil, nil])
        let (code, text) = try again.edit(try store.open())
        #expect(code == .validationFailed, "\(text)")
        let document = again.seen(1)
        #expect(document.contains("# RESTORED: the values below are your unsaved draft of "), "\(document)")
        #expect(document.contains("\nname: Bob\n") && document.contains("\nborn: someday\n"), "\(document)")
        #expect(!document.contains("Leave the file unchanged"))
        #expect(text.hasPrefix("Restored the unsaved draft of people 1 from "), "\(text)")
        #expect(again.seen(2).hasPrefix(EditorDocument.notSavedHeader + "\n#   Born (born) is not a valid date"), "\(again.seen(2))")
        #expect(store.stored("name") == .text("Ann"))
        #expect(store.drafts.count == 1)

        let fixed = try ScriptedEditor([Self.set("born", "1999-12-31")])
        let (savedCode, saved) = try fixed.edit(try store.open())
        #expect(savedCode == .success)
        #expect(saved.hasSuffix("Saved people 1: Name, Born.\n"), "\(saved)")
        #expect(store.stored("name") == .text("Bob"))
        #expect(store.drafts.isEmpty)
    }

    /// A restored draft that reads cleanly is saved by closing the editor unchanged.
    @Test func aCleanDraftIsSavedByClosingTheEditor() throws {
        let store = PeopleStore()
        let session = try store.open()
        try session.set("name", input: "Bea")
        session.close()   // flushes the draft, as an interrupted edit does
        #expect(store.drafts.count == 1)

        let editor = try ScriptedEditor([nil])
        let (code, text) = try editor.edit(try store.open())
        #expect(code == .success)
        #expect(text.hasPrefix("Restored the unsaved draft of people 1 from "), "\(text)")
        #expect(text.hasSuffix(": Name.\nSaved people 1: Name.\n"), "\(text)")
        #expect(editor.invocations == 1)
        #expect(store.stored("name") == .text("Bea"))
        #expect(store.drafts.isEmpty)
    }

    /// Deleting everything from a restored document cancels, and the draft with it.
    @Test func anEmptiedRestoredDocumentCancels() throws {
        let store = PeopleStore()
        let session = try store.open()
        try session.set("name", input: "Bea")
        session.close()
        let editor = try ScriptedEditor([": > \"$1\"\n"])
        let (code, text) = try editor.edit(try store.open())
        #expect(code == .success)
        #expect(text.hasSuffix(EditorEdit.cancelledMessage + "\n"), "\(text)")
        #expect(store.stored("name") == .text("Ann"))
        #expect(store.drafts.isEmpty)
    }

    /// A field changed both in the draft and in the database since: the
    /// document shows the conflict with the draft's value, and saved with
    /// the CONFLICT lines deleted keeps it.
    @Test func aDraftChangedUnderneathIsShownAsAConflict() throws {
        let store = PeopleStore()
        let session = try store.open()
        try session.set("name", input: "Bea")
        session.close()
        store.otherWriter(["name": .text("Anne")])
        let editor = try ScriptedEditor([Self.deleteConflictLines])
        let (code, text) = try editor.edit(try store.open())
        #expect(code == .success, "\(text)")
        #expect(editor.seen(1).contains("# CONFLICT: now Anne in the database"), "\(editor.seen(1))")
        #expect(editor.seen(1).contains("\nname: Bea\n"))
        #expect(store.stored("name") == .text("Bea"))
    }

    /// A script as $EDITOR that writes the same broken document every time
    /// would otherwise be reopened for ever.
    /// A value line that does not read (an unclosed quote) keeps what was
    /// typed on it in the draft, as it stands: abandoned with no other
    /// change, the edit said "no changes made" and kept nothing.
    @Test func aValueThatDoesNotReadIsKeptAsTyped() throws {
        let store = PeopleStore()
        let editor = try ScriptedEditor([Self.set("name", #""Annabelle Smith"#), nil])
        let (code, text) = try editor.edit(try store.open())
        #expect(code == .validationFailed)
        #expect(text.contains("unterminated quoted value"), "\(text)")
        #expect(text.contains("your changes are kept as a draft"), "\(text)")
        #expect(store.stored("name") == .text("Ann"))
        #expect(store.drafts.map { $0.values["name"] ?? $0.inputs["name"].map(FieldValue.text) } == [.text(#""Annabelle Smith"#)])
    }

    @Test func theSameBrokenDocumentTwiceIsAbandoned() throws {
        let store = PeopleStore()
        let overwrite = "printf 'name: Bob\\nnmae: typo\\n' > \"$1\"\n"
        let editor = try ScriptedEditor([overwrite, overwrite, overwrite])
        let (code, text) = try editor.edit(try store.open())
        #expect(code == .validationFailed)
        #expect(editor.invocations == 2)
        #expect(text.hasPrefix("formstore: people 1: the document still has errors; nothing was saved: line 2: unknown field 'nmae'"))
        #expect(store.stored("name") == .text("Ann"))
    }

    /// Left as it was reopened, the document is abandoned with its error
    /// numbered as that document has it (the errors above its lines moved
    /// the bad line down), not as the first one had it.
    @Test func anAbandonedDocumentsErrorIsNumberedAsItWasLastShown() throws {
        let store = PeopleStore()
        let editor = try ScriptedEditor([Self.set("name", "Bob").replacingOccurrences(of: "name: Bob", with: "name Bob"), nil])
        let (code, text) = try editor.edit(try store.open())
        #expect(code == .validationFailed)
        let lines = editor.seen(2).split(separator: "\n", omittingEmptySubsequences: false)
        let bad = try #require(lines.firstIndex(of: "name Bob")) + 1
        #expect(editor.seen(2).contains("#   line \(bad): expected 'field: value'\n"))
        #expect(text.hasPrefix("formstore: people 1: the document still has errors; nothing was saved: line \(bad): expected"), "\(text)")
        #expect(store.stored("name") == .text("Ann"))
    }

    /// The editor script that keeps the person's values over a conflict: it deletes the CONFLICT lines.
    static let deleteConflictLines = "sed -i '/^# CONFLICT/d' \"$1\"\n"

    @Test func aConflictIsShownInTheDocumentAndYoursKept() throws {
        let store = PeopleStore(mode: .edit)
        let session = try store.open()
        store.otherWriter(["name": .text("Anne")])
        // Change the name; on the conflict, delete the CONFLICT lines and save (keeps yours).
        let editor = try ScriptedEditor([Self.set("name", "Bob"), Self.deleteConflictLines])
        let (code, text) = try editor.edit(session)
        #expect(code == .success)
        #expect(text == "Saved people 1: Name.\n")
        #expect(editor.seen(2).contains("""
        # CONFLICT: now Anne in the database
        #   base:   Ann
        #   yours:  Bob   (the line below)
        #   theirs: Anne
        name: Bob

        """))
        #expect(store.stored("name") == .text("Bob"))
    }

    /// A conflict's document closed unchanged (an editor quit without
    /// saving) saves nothing over the other writer's value: the edit stops
    /// (exit 75) and the person's value is kept as a draft. It was saved
    /// over theirs, where the header said an unchanged file cancels.
    @Test func aConflictLeftUnchangedSavesNothingAndKeepsADraft() throws {
        let store = PeopleStore(mode: .edit)
        let session = try store.open()
        store.otherWriter(["name": .text("Anne")])
        let editor = try ScriptedEditor([Self.set("name", "Bob"), nil])
        let (code, text) = try editor.edit(session)
        #expect(code == .tryAgain)
        #expect(text.hasPrefix("formstore: people 1: Name changed by someone else since you began; nothing was saved over it\n"
                               + "Edit abandoned"), "\(text)")
        #expect(editor.seen(2).contains("Left unchanged, nothing is saved and your changes are kept as a draft"))
        #expect(!editor.seen(2).contains("Leave the file unchanged, or delete everything, to cancel."))
        #expect(store.stored("name") == .text("Anne"))
        #expect(store.drafts.map { $0.values["name"] } == [.text("Bob")])
    }

    @Test func aConflictResolvedByTakingTheirsKeepsTheirs() throws {
        let store = PeopleStore()
        let session = try store.open()
        store.otherWriter(["name": .text("Anne")])
        let editor = try ScriptedEditor([Self.set("name", "Bob") + Self.set("notes", "hi"), Self.set("name", "Anne")])
        let (code, text) = try editor.edit(session)
        #expect(code == .success)
        #expect(text == "Saved people 1: Notes.\n")
        #expect(store.stored("name") == .text("Anne"))
        #expect(store.stored("notes") == .text("hi"))
    }

    @Test func aFrozenFormRefusesOtherFields() throws {
        let store = PeopleStore(mode: .frozen) { form in
            form.sections[0].fields[4].enabledWhenNotEditing = true  // notes
        }
        let editor = try ScriptedEditor([Self.set("name", "Bob")])
        #expect(throws: CLIError.validation("people is frozen: only Notes can be changed, not Name")) {
            try editor.edit(try store.open())
        }
        #expect(store.stored("name") == .text("Ann"))
    }

    @Test func aFrozenFormTakesItsEnabledFields() throws {
        let store = PeopleStore(mode: .frozen) { form in
            form.sections[0].fields[4].enabledWhenNotEditing = true
        }
        let editor = try ScriptedEditor([Self.set("notes", "Call back")])
        let (code, _) = try editor.edit(try store.open())
        #expect(code == .success)
        #expect(store.stored("notes") == .text("Call back"))
    }

    @Test func aFrozenFormWithNothingEnabledIsRefusedBeforeTheEditorOpens() throws {
        let store = PeopleStore(mode: .frozen)
        let editor = try ScriptedEditor([])
        #expect(throws: CLIError.validation("people is frozen: its records cannot be changed")) {
            try editor.edit(try store.open())
        }
        #expect(editor.invocations == 0)
    }

    @Test func freeModeSavesWhatChanged() throws {
        let store = PeopleStore(mode: .free)
        let editor = try ScriptedEditor([Self.set("name", "Bob")])
        let (code, text) = try editor.edit(try store.open())
        #expect(code == .success)
        #expect(text == "Saved people 1: Name.\n")
        #expect(store.stored("name") == .text("Bob"))
    }
}
