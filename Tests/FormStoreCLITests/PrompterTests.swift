import Foundation
import Testing
import FormCore
@testable import FormStoreCLI
#if canImport(Glibc)
import Glibc
#endif

@Suite struct PrompterTests {
    private func prompter(_ lines: [String]) -> (Prompter, ScriptedLines, BufferSink) {
        let input = ScriptedLines(lines)
        let output = BufferSink()
        return (Prompter(input: input, output: output), input, output)
    }

    @Test func enterKeepsTheCurrentValue() {
        let (p, _, out) = prompter(["", "Bob"])
        let field = peopleForm().field("name")!
        #expect(p.ask(field, current: "Ann") == .keep)
        #expect(out.text == "Name (required) [Ann]: ")
        #expect(p.ask(field, current: "Ann") == .value("Bob"))
    }

    /// A foreign key's row is named after its value, as `show` names it;
    /// a secret's never.
    @Test func aForeignKeysRowFollowsItsValue() {
        let (p, _, out) = prompter(["", ""])
        #expect(p.ask(peopleForm().field("name")!, current: "7", referred: "(AC/DC)") == .keep)
        #expect(out.text == "Name (required) [7] (AC/DC): ")
        #expect(p.ask(peopleForm().field("password")!, current: "7", referred: "(AC/DC)") == .keep)
        #expect(out.text.components(separatedBy: "AC/DC").count == 2, "\(out.text)")
    }

    @Test func choicesAreNumbered() {
        let (p, _, out) = prompter(["2", "blue", "Purple"])
        let field = peopleForm().field("colour")!
        // A number becomes the choice's value; a label goes as typed, for the session to match.
        #expect(p.ask(field, current: "Red") == .value("green"))
        #expect(out.text == "Favourite colour [Red]:\n  1) Red\n  2) Green\n  3) Blue\nNumber or label: ")
        #expect(p.ask(field, current: nil) == .value("blue"))
        // Not a choice: returned as typed, for the session to refuse.
        #expect(p.ask(field, current: nil) == .value("Purple"))
    }

    @Test func numericLabelsWinOverPositions() {
        var field = Field(key: "size", kind: .choice)
        field.choices = [Choice(2), Choice(1), Choice(10)]
        let (p, _, _) = prompter(["1", "3"])
        #expect(p.ask(field, current: nil) == .value("1"))
        #expect(p.ask(field, current: nil) == .value("10"))
    }

    @Test func aNumberIsAPositionOnlyWhereNoChoiceIsThatValue() {
        var field = Field(key: "prio", kind: .choice)
        field.choices = [0, 1, 2, 5].map { Choice(.int($0)) }
        let (p, _, out) = prompter(["2", "4", "3"])
        #expect(p.ask(field, current: nil) == .value("2"), "2 is a value: the value 2, not the second choice")
        #expect(out.text.contains("  4) 5\n"))
        #expect(p.ask(field, current: nil) == .value("5"), "no choice is 4: the fourth in the menu")
        #expect(p.ask(field, current: nil) == .value("2"), "no choice is 3: the third in the menu")
    }

    @Test func multichoiceTakesSeveral() {
        var field = Field(key: "foods", label: "Foods", kind: .multichoice)
        field.choices = [Choice("pizza"), Choice("sushi"), Choice("tacos")]
        let (p, _, out) = prompter(["1, 3"])
        #expect(p.ask(field, current: nil) == .value("pizza, tacos"))
        #expect(out.text.hasSuffix("Numbers or labels, separated by commas: "))
    }

    @Test func suggestionsAndErrorsAreShown() {
        var field = Field(key: "city", label: "City")
        field.suggestions = ["Paris", "Lima"]
        let (p, _, out) = prompter(["Oslo"])
        #expect(p.ask(field, current: nil, error: "not a city") == .value("Oslo"))
        #expect(out.text == "  ! not a city\nCity:\n  suggestions: Paris, Lima\n> ")
    }

    @Test func secureInputIsNotEchoedNorShown() {
        let (p, input, out) = prompter(["s3cret"])
        let field = peopleForm().field("password")!
        #expect(p.ask(field, current: "hunter2") == .value("s3cret"))
        #expect(input.echoRequests == [false])
        #expect(out.text == "Password [••••]: ")
    }

    @Test func endOfInputReturnsNil() {
        let (p, _, _) = prompter([])
        #expect(p.ask(peopleForm().field("name")!, current: nil) == nil)
        #expect(p.confirm("Save?", default: true) == nil)
    }

    @Test func confirmTakesYesNoAndTheDefault() {
        let (p, _, out) = prompter(["", "maybe", "n", "YES"])
        #expect(p.confirm("Save changes?", default: true) == true)
        #expect(p.confirm("Save changes?", default: true) == false)
        #expect(p.confirm("Discard?", default: false) == true)
        #expect(out.text.contains("Save changes? [Y/n] Save changes? [Y/n]   Please answer yes or no.\n"))
        #expect(out.text.hasSuffix("Discard? [y/N] "))
    }

    @Test func linesFromAByteSourceHandleCRLFAndNoFinalNewline() {
        let lines = ByteSourceLines(BufferSource("one\r\ntwo\nthree", chunkLimit: 2))
        #expect(lines.readLine(echo: true) == "one")
        #expect(lines.readLine(echo: false) == "two")
        #expect(lines.readLine(echo: true) == "three")
        #expect(lines.readLine(echo: true) == nil)
    }

    /// Through a pseudo-terminal: what is typed for a secure field is not echoed back.
    @Test func secureInputOnATerminalTurnsEchoOff() throws {
        let (master, slaveName) = try #require(PseudoTerminal.open())
        defer { close(master) }
        let slave = open(slaveName, O_RDWR | O_NOCTTY)
        try #require(slave >= 0)
        defer { close(slave) }

        let source = FileDescriptorSource(fileDescriptor: slave)
        #expect(source.isTerminal)
        let lines = ByteSourceLines(source)
        func type(_ text: String) { _ = text.withCString { write(master, $0, strlen($0)) } }

        // Echo is turned off before the read starts, so type once the reader waits.
        source.setEcho(false)
        type("s3cret\n")
        #expect(lines.readLine(echo: false) == "s3cret")
        type("visible\n")
        #expect(lines.readLine(echo: true) == "visible")

        // Echo comes back in order: everything up to "visible" was echoed, and "s3cret" was not.
        var echoed = ""
        var buffer = [UInt8](repeating: 0, count: 256)
        while !echoed.contains("visible") {
            let n = read(master, &buffer, buffer.count)
            guard n > 0 else { break }
            echoed += String(decoding: buffer[..<n], as: UTF8.self)
        }
        #expect(echoed.contains("visible"))
        #expect(!echoed.contains("s3cret"))
    }
}

/// Opens a pseudo-terminal pair. The Glibc module leaves out `posix_openpt`
/// and friends (they need _XOPEN_SOURCE), so they are looked up at run time.
enum PseudoTerminal {
    private typealias IntFunction = @convention(c) (Int32) -> Int32
    private typealias NameFunction = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    /// The master's descriptor and the slave's path.
    static func open() -> (Int32, String)? {
        let libc = dlopen(nil, RTLD_NOW)
        guard let openSymbol = dlsym(libc, "posix_openpt"), let grantSymbol = dlsym(libc, "grantpt"),
              let unlockSymbol = dlsym(libc, "unlockpt"), let nameSymbol = dlsym(libc, "ptsname") else { return nil }
        let master = unsafeBitCast(openSymbol, to: IntFunction.self)(O_RDWR | O_NOCTTY)
        guard master >= 0 else { return nil }
        guard unsafeBitCast(grantSymbol, to: IntFunction.self)(master) == 0,
              unsafeBitCast(unlockSymbol, to: IntFunction.self)(master) == 0,
              let name = unsafeBitCast(nameSymbol, to: NameFunction.self)(master) else {
            close(master)
            return nil
        }
        return (master, String(cString: name))
    }
}
