import Testing
@testable import FormStoreCLI

@Suite struct LineEditorTests {
    @Test func typingAndMovingByCharacter() {
        var line = LineEditor("Ann")
        line.insert("e")
        #expect(line.text == "Anne")
        line.moveHome()
        line.deleteForward()
        line.insert("J")
        #expect(line.text == "Jnne")
        line.moveEnd()
        line.deleteBackward()
        #expect(line.text == "Jnn")
        line.clear()
        #expect(line.text == "" && line.cursor == 0)
    }

    /// Keys arrive a Unicode scalar at a time: a flag's halves, a skin tone
    /// and an accent typed after their letter form one character, which ←,
    /// → and Backspace step over whole. Backspace after a flag left half of
    /// it, and a letter typed between an emoji and its skin tone split them.
    @Test func scalarsTypedOneByOneFormOneCharacter() {
        var line = LineEditor("")
        for scalar in "x🇯🇵👍🏽e\u{301}".unicodeScalars { line.insert(Character(scalar)) }
        #expect(line.text == "x🇯🇵👍🏽é")
        #expect(line.characters.count == 4 && line.cursor == 4)
        line.deleteBackward()
        #expect(line.text == "x🇯🇵👍🏽")
        line.moveLeft()
        line.insert("A")
        #expect(line.text == "x🇯🇵A👍🏽")
        line.moveLeft()
        line.moveLeft()
        line.deleteBackward()
        #expect(line.text == "🇯🇵A👍🏽" && line.cursor == 0)
        // A letter typed before an accent takes it, and the cursor goes past both.
        var accent = LineEditor("\u{301}b")
        accent.moveHome()
        accent.insert("e")
        #expect(accent.text == "éb" && accent.cursor == 1)
    }

    @Test func theCursorCountsColumnsNotCharacters() {
        var line = LineEditor("東京x")
        #expect(line.cursorColumn == 5)
        line.moveLeft()
        #expect(line.cursorColumn == 4)
        line.moveLeft()
        line.deleteBackward()
        #expect(line.text == "京x")
        #expect(line.cursorColumn == 0)
    }

    @Test func aLongLineScrollsToKeepTheCursorInView() {
        var line = LineEditor("abcdefghij")
        let end = line.window(width: 5)
        #expect(end.text == "ghij")
        #expect(end.cursor == 4)
        line.moveHome()
        let start = line.window(width: 5)
        #expect(start.text == "abcde")
        #expect(start.cursor == 0)
    }
}
