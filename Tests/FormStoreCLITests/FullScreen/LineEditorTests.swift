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
