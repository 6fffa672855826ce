import Testing
@testable import FormStoreCLI

@Suite struct ScreenBufferTests {
    @Test func wideCharactersTakeTwoCellsAndLineUp() {
        var screen = ScreenBuffer(width: 12, height: 3)
        screen.write("東京|", row: 0, column: 0)
        screen.write("abcd|", row: 1, column: 0)
        screen.write("e\u{301}👍🏽x|", row: 2, column: 0)
        #expect(screen.line(0) == "東京|")
        // The bars stand in the same column: 東京 is four columns, like abcd.
        #expect(screen[0, 4].text == "|")
        #expect(screen[1, 4].text == "|")
        // A combining mark stays with its letter; an emoji with its skin tone takes two columns.
        #expect(screen[2, 0].text == "e\u{301}")
        #expect(screen[2, 3].text == "x")
    }

    @Test func aWideCharacterThatDoesNotFitLeavesABlank() {
        var screen = ScreenBuffer(width: 5, height: 1)
        screen.write("ab東京", row: 0, column: 0)
        #expect(screen.line(0) == "ab東")
        #expect(screen[0, 4].text == " ")
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var screen = ScreenBuffer(width: 6, height: 1)
        screen.write("東京", row: 0, column: 0)
        screen.write("x", row: 0, column: 1)
        #expect(screen.line(0) == " x京")
    }

    @Test func controlCharactersAreShownAsQuestionMarks() {
        var screen = ScreenBuffer(width: 10, height: 1)
        screen.write("a\u{1B}[2Jb", row: 0, column: 0)
        #expect(screen.line(0) == "a?[2Jb")
    }

    @Test func tabsAndLineBreaksShowAsSignsOfOneColumn() {
        var screen = ScreenBuffer(width: 12, height: 1)
        screen.write("a\tb\rc\nd\r\ne", row: 0, column: 0)
        #expect(screen.line(0) == "a⇥b␍c⏎d⏎e")
    }

    @Test func anUnchangedScreenWritesNothingButTheCursor() {
        var screen = ScreenBuffer(width: 10, height: 2)
        screen.write("hello", row: 0, column: 0)
        #expect(ScreenBuffer.changes(from: screen, to: screen, color: false) == "\u{1B}[?25l")
    }

    @Test func onlyTheChangedCellsAreWritten() {
        var old = ScreenBuffer(width: 20, height: 2)
        old.write("Name: Ann", row: 0, column: 0)
        old.write("Age: 40", row: 1, column: 0)
        var new = old
        new.write("Name: Annie", row: 0, column: 0)
        let bytes = ScreenBuffer.changes(from: old, to: new, color: false)
        #expect(bytes == "\u{1B}[1;10H\u{1B}[0mie\u{1B}[0m\u{1B}[?25l")
    }

    @Test func aChangedWideCharacterIsRedrawnWhole() {
        var old = ScreenBuffer(width: 10, height: 1)
        old.write("東京", row: 0, column: 0)
        var new = old
        new.write("東都", row: 0, column: 0)
        let bytes = ScreenBuffer.changes(from: old, to: new, color: false)
        #expect(bytes.hasPrefix("\u{1B}[1;3H"))
        #expect(bytes.contains("都"))
        #expect(!bytes.contains("東"))
    }

    /// A row that held a character of several code points (👍🏽, which
    /// terminals may draw four cells wide) is drawn whole and cleared to its
    /// end when it changes: redrawn in part, the terminal's shifted cells stayed.
    @Test func aRowWithAClusterIsRedrawnWholeAndCleared() {
        var old = ScreenBuffer(width: 12, height: 2)
        old.write("👍🏽 ok", row: 0, column: 0)
        old.write("x", row: 1, column: 0)
        var new = ScreenBuffer(width: 12, height: 2)
        new.write("abc", row: 0, column: 0)
        new.write("x", row: 1, column: 0)
        let bytes = ScreenBuffer.changes(from: old, to: new, color: false)
        // The whole row, then erase to its end; the unchanged row is not written.
        #expect(bytes == "\u{1B}[1;1H\u{1B}[0mabc         \u{1B}[K\u{1B}[0m\u{1B}[?25l", "\(bytes.debugDescription)")
    }

    @Test func colourOnlyWhenAllowed() {
        var screen = ScreenBuffer(width: 10, height: 1)
        screen.write("! bad", row: 0, column: 0, style: .error)
        #expect(ScreenBuffer.changes(from: nil, to: screen, color: true).contains("\u{1B}[0;1;31m"))
        let monochrome = ScreenBuffer.changes(from: nil, to: screen, color: false)
        #expect(monochrome.contains("\u{1B}[0;1m! bad"))
        #expect(!monochrome.contains("31"))
    }

    @Test func theCursorIsPlacedWhereTheBufferSays() {
        var screen = ScreenBuffer(width: 10, height: 3)
        screen.cursor = (row: 2, column: 4)
        #expect(ScreenBuffer.changes(from: nil, to: screen, color: false).hasSuffix("\u{1B}[3;5H\u{1B}[?25h"))
    }
}
