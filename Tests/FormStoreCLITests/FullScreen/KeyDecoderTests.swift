import Testing
@testable import FormStoreCLI

@Suite struct KeyDecoderTests {
    private func keys(_ bytes: [UInt8]) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.feed(bytes) + decoder.flush()
    }

    @Test func textAndControlKeys() {
        #expect(keys(Array("aZ ".utf8)) == [.character("a"), .character("Z"), .character(" ")])
        #expect(keys([0x09, 0x0D, 0x7F, 0x13, 0x03, 0x1A]) ==
                [.tab, .enter, .backspace, .control("s"), .control("c"), .control("z")])
    }

    @Test func utf8TextEvenWhenSplitAcrossReads() {
        var decoder = KeyDecoder()
        let bytes = Array("東".utf8)
        #expect(decoder.feed(Array(bytes.prefix(2))) == [])
        #expect(decoder.feed(Array(bytes.dropFirst(2))) == [.character("東")])
    }

    @Test func escapeSequencesOfXtermAndTheConsole() {
        #expect(keys(Array("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D".utf8)) == [.up, .down, .right, .left])
        #expect(keys(Array("\u{1B}[Z\u{1B}[3~\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~".utf8)) ==
                [.backTab, .delete, .home, .end, .home, .end])
        #expect(keys(Array("\u{1B}OA\u{1B}OH\u{1B}[5~\u{1B}[6~".utf8)) == [.up, .home, .pageUp, .pageDown])
        #expect(keys(Array("\u{1B}[1;5C".utf8)) == [.right])
    }

    @Test func altOrCtrlWithUpOrDownMovesARow() {
        #expect(keys(Array("\u{1B}[1;3A\u{1B}[1;3B\u{1B}[1;5A\u{1B}[1;5B".utf8)) == [.rowUp, .rowDown, .rowUp, .rowDown])
        #expect(keys(Array("\u{1B}[1;1A".utf8)) == [.up])
    }

    /// A bracketed paste is one key holding the text, line breaks as `\n`,
    /// however it is split across reads; before, each of its line breaks was
    /// Enter, which moved the rest of the paste into the next fields.
    @Test func aBracketedPasteIsOneKeyWithItsText() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("a\u{1B}[200~Line one\r".utf8)) == [.character("a")])
        #expect(decoder.isHolding)
        #expect(decoder.feed(Array("Line two\r\n3.5\u{1B}[201~b".utf8)) == [.paste("Line one\nLine two\n3.5"), .character("b")])
        #expect(!decoder.isHolding)
        // Its end never came (the terminal went quiet): what came is the paste.
        #expect(decoder.feed(Array("\u{1B}[200~half".utf8)).isEmpty)
        #expect(decoder.flush() == [.paste("half")])
        var line = LineEditor("x")
        #expect(line.apply(.paste("1\n2")) && line.text == "x1\n2")
    }

    @Test func aLoneEscapeIsHeldUntilFlushed() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.isHolding)
        #expect(decoder.flush() == [.escape])
        // The rest of a sequence that came late is still one key.
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.feed(Array("[Z".utf8)) == [.backTab])
    }

    @Test func unknownSequencesAreDropped() {
        #expect(keys(Array("\u{1B}[999~x".utf8)) == [.character("x")])
    }
}
