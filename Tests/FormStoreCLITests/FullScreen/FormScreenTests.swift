import FormCore
import Testing
@testable import FormStoreCLI

/// The full-screen form as a model, driven key by key, read as text.
@Suite struct FormScreenTests {
    private func type(_ text: String, into screen: FormScreen) throws {
        for character in text { _ = try screen.handle(.character(character)) }
    }

    private func screenText(_ screen: FormScreen, width: Int = 80, height: Int = 16) -> String {
        screen.render(width: width, height: height).text
    }

    @Test func everyVisibleFieldWithItsLabelAndValue() throws {
        let people = PeopleStore()
        let screen = FormScreen(session: try people.open())
        let text = screenText(screen)
        #expect(text.contains(" People — people id=1") || text.contains(" People — people 1"))
        #expect(text.contains("ID"))
        #expect(text.contains("Name *   Ann") || text.contains("Name *") && text.contains("Ann"))
        #expect(text.contains("Red ▾"))
        #expect(text.contains("SAVE │ no changes"))
    }

    @Test func typingEditsInPlaceAndCountsAsUnsaved() throws {
        let people = PeopleStore()
        let session = try people.open()
        let screen = FormScreen(session: session)
        _ = try screen.handle(.tab)  // ID is read-only; Name is next
        #expect(screen.focus == "name")
        try type("ie", into: screen)
        #expect(session.value("name") == .text("Annie"))
        _ = try screen.handle(.left)
        _ = try screen.handle(.left)
        _ = try screen.handle(.backspace)
        #expect(session.value("name") == .text("Anie"))
        #expect(screenText(screen).contains("1 unsaved"))
    }

    /// The full-screen form edits a value itself: a backslash typed is a
    /// backslash (the prompts' escapes are theirs alone).
    @Test func aBackslashTypedIsKeptAsIs() throws {
        let people = PeopleStore()
        let session = try people.open()
        let screen = FormScreen(session: session)
        _ = try screen.handle(.tab)
        try type(#" C:\temp\n"#, into: screen)
        #expect(session.value("name") == .text(#"Ann C:\temp\n"#))
    }

    /// A bidi control or zero-width character in the value being edited is
    /// drawn (⬚), one column the cursor steps over: it was left out, so the
    /// person saw `abcdef` and a key that seemed not to move the cursor.
    @Test func aHiddenCharacterBeingEditedIsDrawn() throws {
        let people = PeopleStore()
        people.otherWriter(["name": .text("abc\u{202E}def\u{200B}")])
        let screen = FormScreen(session: try people.open())
        _ = try screen.handle(.tab)
        let drawn = screen.render(width: 80, height: 16)
        #expect(drawn.text.contains("abc⬚def⬚"), "\(drawn.text)")
        _ = try screen.handle(.home)
        for _ in 0..<4 { _ = try screen.handle(.right) }
        let afterHidden = screen.render(width: 80, height: 16).cursor
        _ = try screen.handle(.left)
        #expect(screen.render(width: 80, height: 16).cursor?.column == (afterHidden?.column ?? 0) - 1)
    }

    @Test func readOnlyFieldsRefuseTypingWithAReason() throws {
        let screen = FormScreen(session: try PeopleStore().open())
        #expect(screen.focus == "id")
        _ = try screen.handle(.character("9"))
        #expect(screen.message?.text == "ID is read-only")
    }

    @Test func errorsShowBesideTheFieldAndSaveFocusesIt() throws {
        let people = PeopleStore()
        let session = try people.open()
        let screen = FormScreen(session: session)
        _ = try screen.handle(.tab)
        _ = try screen.handle(.control("u"))
        _ = try screen.handle(.tab)
        _ = try screen.handle(.control("s"))
        #expect(screen.focus == "name")
        let text = screenText(screen)
        #expect(text.contains("! Name is required"))
        #expect(text.contains("Not saved: 1 field needs attention."))
        #expect(people.stored("name") == .text("Ann"))
        try type("Bea", into: screen)
        _ = try screen.handle(.control("s"))
        #expect(people.stored("name") == .text("Bea"))
        #expect(screen.message?.text == "Saved: Name.")
        #expect(try screen.handle(.escape) == .quit(code: .success, farewell: "Saved: Name."))
    }

    @Test func thePickerFiltersByWhatIsTyped() throws {
        let people = PeopleStore()
        let session = try people.open()
        let screen = FormScreen(session: session)
        try screen.focus(on: "colour")
        _ = try screen.handle(.character("g"))
        guard case .picker(let picker)? = screen.overlay else { Issue.record("no picker"); return }
        #expect(screen.filteredChoices(picker).map(\.label) == ["Green"])
        #expect(screenText(screen).contains("Filter: g"))
        _ = try screen.handle(.enter)
        #expect(session.value("colour") == .text("green"))
        #expect(screen.overlay == nil)
    }

    @Test func aLongPickerSaysHowManyMoreAndFitsASmallScreen() throws {
        let months = ["January", "February", "March", "April", "May", "June", "July", "August",
                      "September", "October", "November", "December"]
        let people = PeopleStore { form in
            form.sections[0].fields[2].choices = months.map { Choice(.text($0.lowercased()), label: $0) }
        }
        let screen = FormScreen(session: try people.open())
        try screen.focus(on: "colour")
        _ = try screen.handle(.enter)
        guard case .picker? = screen.overlay else { Issue.record("no picker"); return }
        var text = screenText(screen, width: 40, height: 10)
        #expect(text.contains("more"), "\(text)")
        #expect(text.contains("↓"), "\(text)")
        for _ in 0..<11 { _ = try screen.handle(.down) }
        text = screenText(screen, width: 40, height: 10)
        #expect(text.contains("↑"), "\(text)")
        #expect(text.contains("December"), "\(text)")
        // At the smallest size the box is whole: both corners of each border on the screen.
        text = screenText(screen, width: 30, height: 8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.contains { $0.contains("┌") && $0.contains("┐") }, "\(text)")
        #expect(lines.contains { $0.contains("└") && $0.contains("┘") }, "\(text)")
        #expect(lines.allSatisfy { DisplayWidth.of(String($0)) <= 30 })
    }

    @Test func escapeWithChangesAsksFirst() throws {
        let people = PeopleStore()
        let session = try people.open()
        let screen = FormScreen(session: session)
        _ = try screen.handle(.tab)
        try type("x", into: screen)
        #expect(try screen.handle(.escape) == .none)
        #expect(screenText(screen).contains("Discard your unsaved changes (1 field)?"))
        #expect(try screen.handle(.character("n")) == .none)
        #expect(screen.overlay == nil)
        _ = try screen.handle(.escape)
        #expect(try screen.handle(.character("y")) == .quit(code: .success, farewell: "Changes discarded."))
        #expect(people.stored("name") == .text("Ann"))
    }

    @Test func escapeAsksInTheFormsOwnWordsOrNotAtAllWhenItsWarningIsOff() throws {
        let worded = PeopleStore { $0.unsavedChangesWarning = "Throw away this person?" }
        var screen = FormScreen(session: try worded.open())
        _ = try screen.handle(.tab)
        try type("x", into: screen)
        _ = try screen.handle(.escape)
        #expect(screenText(screen).contains("Throw away this person?"))
        #expect(screenText(screen).contains("(1 field unsaved)"))

        let silent = PeopleStore { $0.unsavedChangesWarning = nil }
        screen = FormScreen(session: try silent.open())
        _ = try screen.handle(.tab)
        try type("x", into: screen)
        #expect(try screen.handle(.escape) == .quit(code: .success, farewell: "Changes discarded."))
        #expect(silent.stored("name") == .text("Ann"))
    }

    @Test func escapeWithoutChangesLeavesAtOnce() throws {
        let screen = FormScreen(session: try PeopleStore().open())
        #expect(try screen.handle(.escape) == .quit(code: .success, farewell: "No changes made."))
    }

    @Test func editModeIsReadOnlyUntilCtrlE() throws {
        let people = PeopleStore(mode: .edit)
        let session = try people.open()
        let screen = FormScreen(session: session)
        try screen.focus(on: "name")
        _ = try screen.handle(.character("x"))
        #expect(screen.message?.text == "Name cannot be changed yet: press Ctrl-E to edit")
        #expect(screenText(screen).contains("EDIT: viewing │ no changes │ ^E edit"))
        _ = try screen.handle(.control("e"))
        _ = try screen.handle(.character("x"))
        #expect(session.value("name") == .text("Annx"))
        #expect(screenText(screen).contains("EDITING │ 1 unsaved"))
    }

    @Test func freeModeSavesAFieldWhenItIsLeft() throws {
        let people = PeopleStore(mode: .free)
        let screen = FormScreen(session: try people.open())
        try screen.focus(on: "name")
        try type("e", into: screen)
        #expect(people.stored("name") == .text("Ann"))
        _ = try screen.handle(.tab)
        #expect(people.stored("name") == .text("Anne"))
        #expect(screen.message?.text == "Saved Name.")
    }

    @Test func frozenFormsEditOnlyFieldsEnabledWhenNotEditing() throws {
        let people = PeopleStore(mode: .frozen) { form in
            form.sections[0].fields[4].enabledWhenNotEditing = true  // notes
        }
        let session = try people.open()
        let screen = FormScreen(session: session)
        try screen.focus(on: "name")
        _ = try screen.handle(.character("x"))
        #expect(screen.message?.isProblem == true)
        try screen.focus(on: "notes")
        try type("hi", into: screen)
        #expect(session.value("notes") == .text("hi"))
    }

    @Test func aConflictOffersYoursOrTheirsPerField() throws {
        let people = PeopleStore()
        let session = try people.open()
        let screen = FormScreen(session: session)
        try screen.focus(on: "name")
        try type("ie", into: screen)
        people.otherWriter(["name": .text("Anne")])
        _ = try screen.handle(.control("s"))
        let text = screenText(screen)
        #expect(text.contains("Not saved: someone else changed these fields since you began."))
        #expect(text.contains("Name    Ann   Annie   Anne     (•) yours  ( ) theirs"))
        _ = try screen.handle(.right)
        _ = try screen.handle(.enter)
        #expect(session.value("name") == .text("Anne"))
        #expect(!session.hasUnsavedChanges)
    }

    @Test func aDraftFoundOnOpenIsOffered() throws {
        let people = PeopleStore()
        let first = try people.open()
        try first.set("name", input: "Draftee")
        first.close()
        let session = try people.open()
        let screen = FormScreen(session: session)
        #expect(screenText(screen).contains("An unsaved draft of this record was found,"))
        _ = try screen.handle(.character("r"))
        #expect(session.value("name") == .text("Draftee"))
        #expect(screen.message?.text == "Restored: Name.")
    }

    @Test func secretsAreMaskedAndTypedAfresh() throws {
        let people = PeopleStore()
        let session = try people.open()
        let screen = FormScreen(session: session)
        try screen.focus(on: "password")
        try type("s3cret", into: screen)
        let text = screenText(screen)
        #expect(text.contains("••••••"))
        #expect(!text.contains("s3cret"))
    }

    @Test func aLongFormScrollsToTheFocus() throws {
        let people = PeopleStore()
        let screen = FormScreen(session: try people.open())
        try screen.focus(on: "password")
        let text = screenText(screen, height: 8)
        #expect(text.contains("Password"))
        #expect(!text.contains("ID"))
        #expect(text.contains("↑"))
    }

    /// A page moves ten fields and stops at either end; Tab wraps round.
    @Test func pagesStopAtTheEndsOfTheForm() throws {
        let screen = FormScreen(session: try PeopleStore().open())
        let first = screen.focus
        _ = try screen.handle(.pageDown)
        let last = screen.focus
        _ = try screen.handle(.pageDown)
        #expect(screen.focus == last && last != first, "\(String(describing: last))")
        _ = try screen.handle(.tab)
        #expect(screen.focus == first)
        _ = try screen.handle(.pageUp)
        #expect(screen.focus == first)
    }

    /// Typing into a field that holds '' and rubbing it out again is no change: not NULL.
    @Test func typingThenRubbingOutKeepsEmptyText() throws {
        let people = PeopleStore()
        people.otherWriter(["notes": .text("")])
        let session = try people.open()
        let screen = FormScreen(session: session)
        try screen.focus(on: "notes")
        try type("x", into: screen)
        _ = try screen.handle(.backspace)
        _ = try screen.handle(.tab)
        #expect(session.value("notes") == .text(""))
        #expect(!session.hasUnsavedChanges)
    }

    /// `\N` typed is NULL and `""` empty text, as at the prompts.
    @Test func backslashNIsNullAndTwoQuotesEmptyText() throws {
        let people = PeopleStore()
        people.otherWriter(["notes": .text("hi")])
        let session = try people.open()
        let screen = FormScreen(session: session)
        try screen.focus(on: "notes")
        _ = try screen.handle(.control("u"))
        try type(#"\N"#, into: screen)
        #expect(session.value("notes") == .null)
        _ = try screen.handle(.control("u"))
        try type(#""""#, into: screen)
        #expect(session.value("notes") == .text(""))
    }

    /// On a narrow terminal a dialog wraps its lines instead of cutting off
    /// its last words, which are the keys to press.
    @Test func aNarrowDialogWrapsItsKeys() throws {
        let people = PeopleStore()
        let session = try people.open()
        try session.set("name", input: "Bea")
        session.close()
        let screen = FormScreen(session: try people.open())
        let text = screenText(screen, width: 40, height: 16).split(separator: "\n").dropLast(1).joined(separator: "\n") + "\n"
        #expect(text.contains("│ r restore it d discard it k keep   │\n") && text.contains("│ it for later"), "\(text)")
        #expect(!text.contains("…"), "\(text)")
        #expect(FormScreen.wrapped("r  restore it     d  discard it     k  keep it for later", width: 34)
                == ["r restore it d discard it k keep", "it for later"])
    }

    @Test func aTinyTerminalSaysSo() throws {
        let screen = FormScreen(session: try PeopleStore().open())
        #expect(screenText(screen, width: 20, height: 5) == "Terminal too small\n(20x5; needs 30x8)\n\n\n")
    }

    @Test func keysTypedOnATooSmallScreenEditNothing() throws {
        let session = try PeopleStore().open()
        let screen = FormScreen(session: session)
        _ = screenText(screen, width: 20, height: 5)
        for key: Key in [.tab, .character("x"), .backspace, .control("s"), .escape] {
            #expect(try screen.handle(key) == .none)
        }
        #expect(session.value("name") == .text("Ann"))
        #expect(!session.hasUnsavedChanges)
        // Drawn again at a size that fits, the form takes keys as before.
        _ = screenText(screen)
        _ = try screen.handle(.tab)
        try type("x", into: screen)
        #expect(session.value("name") == .text("Annx"))
    }
}

/// Switches, multichoice toggles, conditions and colour.
@Suite struct FormScreenKindTests {
    /// People with a switch, a multichoice, and notes shown only for blue.
    private func people() -> PeopleStore {
        PeopleStore { form in
            var member = Field(key: "member", label: "Member", kind: .bool)
            member.defaultValue = .bool(false)
            var tags = Field(key: "tags", label: "Tags", kind: .multichoice)
            tags.choices = [Choice("a", label: "Alpha"), Choice("b", label: "Beta")]
            form.sections[0].fields[4].hiddenWhen = .notEquals("colour", .text("blue"))
            form.sections.append(Section("More", fields: [member, tags]))
        }
    }

    @Test func aSwitchIsACheckboxToggledWithSpace() throws {
        let store = people()
        let session = try store.open()
        let screen = FormScreen(session: session)
        try screen.focus(on: "member")
        // The stored person holds no value there (NULL): neither yes nor no.
        #expect(screen.render(width: 80, height: 20).text.contains("Member            [-]"))
        _ = try screen.handle(.character(" "))
        #expect(session.value("member") == .bool(true))
        #expect(screen.render(width: 80, height: 20).text.contains("Member            [x]"))
        _ = try screen.handle(.character(" "))
        #expect(screen.render(width: 80, height: 20).text.contains("Member            [ ]"))
    }

    @Test func multichoiceIsARowOfToggles() throws {
        let store = people()
        let session = try store.open()
        let screen = FormScreen(session: session)
        try screen.focus(on: "tags")
        _ = try screen.handle(.right)
        _ = try screen.handle(.character(" "))
        #expect(session.value("tags") == .list([.text("b")]))
        #expect(screen.render(width: 80, height: 20).text.contains("Tags               [ ] Alpha  ‹[x] Beta›"))
    }

    @Test func hiddenFieldsFollowTheirConditions() throws {
        let store = people()
        let session = try store.open()
        let screen = FormScreen(session: session)
        #expect(!screen.render(width: 80, height: 20).text.contains("Notes"))
        try screen.focus(on: "colour")
        _ = try screen.handle(.character("b"))
        _ = try screen.handle(.character("l"))
        _ = try screen.handle(.enter)
        #expect(session.value("colour") == .text("blue"))
        let shown = screen.render(width: 80, height: 20).text
        #expect(shown.contains("Notes"))
        #expect(shown.contains(" More"))
        _ = try screen.handle(.tab)
        _ = try screen.handle(.tab)
        #expect(screen.focus == "notes")
    }

    @Test func noColorAndMonochromeTerminalsDrawWithoutColour() {
        #expect(FullScreenEdit.allowsColor(["TERM": "xterm-256color"]))
        #expect(!FullScreenEdit.allowsColor(["TERM": "xterm-256color", "NO_COLOR": "1"]))
        #expect(FullScreenEdit.allowsColor(["TERM": "xterm", "NO_COLOR": ""]))
        #expect(!FullScreenEdit.allowsColor(["TERM": "vt100"]))
        #expect(!FullScreenEdit.allowsColor(["TERM": "xterm-mono"]))
    }

    @Test func theFormNeedsATerminalThatCanPositionACursor() {
        let tty = BufferSource("", isTerminal: true)
        let sink = BufferSink()
        // A buffer is never a terminal: tests and pipes get the prompts.
        #expect(!FullScreenEdit.isPossible(input: tty, output: sink, environment: ["TERM": "xterm"]))
    }
}

@Suite struct PickerPlacementTests {
    @Test func aPickerNearTheBottomOpensAboveItsField() throws {
        let people = PeopleStore { form in
            // Colour last: on a short screen its row is the last of the body.
            let colour = form.sections[0].fields.remove(at: 2)
            form.sections[0].fields.append(colour)
        }
        let screen = FormScreen(session: try people.open())
        try screen.focus(on: "colour")
        _ = try screen.handle(.enter)
        let lines = screen.render(width: 60, height: 14).text.split(separator: "\n", omittingEmptySubsequences: false)
        let field = try #require(lines.firstIndex { $0.contains("Favourite colour") })
        let filter = try #require(lines.firstIndex { $0.contains("Filter:") })
        #expect(filter < field)
        #expect(lines[field - 1].contains("└"))
        #expect(lines.last?.contains("Enter pick") == true)
    }
}

/// Paths of a group's rows and cells, named as a person says them in messages.
@Suite struct FieldDisplayLabelTests {
    @Test func aRowsPathReadsAsItsGroupAndPlace() {
        var line = RowGroup(key: "lines", fields: [Field(key: "amount", label: "Amount", kind: .decimal)])
        line.table = "invoice_line"
        let form = Form(name: "invoice", sections: [Section(fields: [Field(key: "customer", label: "Customer")]),
                                                    Section("Lines", group: line)])
        #expect(FieldDisplay.label("customer", in: form) == "Customer")
        #expect(FieldDisplay.label("lines[#6]", in: form) == "Lines row 6")
        #expect(FieldDisplay.label("lines[10].amount", in: form) == "Lines row 10 (Amount)")
        #expect(FieldDisplay.label("other[1]", in: form) == "other[1]")
    }
}
