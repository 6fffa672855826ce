import FormStoreTestSupport
import Foundation
import Testing
@testable import FormStoreCLI

/// One way to show a value: table cells measured in terminal columns, cut
/// to the terminal's width, and date-times with their seconds.
@Suite struct DisplayTests {
    static let schema = """
    CREATE TABLE places (id INTEGER PRIMARY KEY, city TEXT, note TEXT);
    INSERT INTO places VALUES (1, '東京', 'e' || char(769) || 'te'), (2, 'Kraków', '🎉 party'), (3, '서울', 'x');
    CREATE TABLE events (id INTEGER PRIMARY KEY, name TEXT, at DATETIME);
    INSERT INTO events VALUES (1, 'launch', '2024-03-01 12:34:56');
    """

    @Test func widthsCountTerminalColumns() {
        #expect(DisplayWidth.of("Kraków") == 6)
        #expect(DisplayWidth.of("東京") == 4)
        #expect(DisplayWidth.of("e\u{301}te") == 3)
        #expect(DisplayWidth.of("🎉") == 2)
        #expect(DisplayWidth.of("👍🏽") == 2)
        #expect(DisplayWidth.fit("東京都庁", width: 5) == "東京…")
        #expect(DisplayWidth.fit("abc", width: 3) == "abc")
    }

    @Test func tableColumnsLineUpWithWideAndCombiningCharacters() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let run = try demo.run(["list", "places"])
        #expect(run.code == 0, "\(run)")
        #expect(run.output == """
            id  city    note
             1  東京    e\u{301}te
             2  Kraków  🎉 party
             3  서울    x

            """)
    }

    @Test func longCellsAreCutToTheTerminalWidth() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        try demo.query("UPDATE places SET note = 'a note far longer than the terminal is wide' WHERE id = 3")
        let narrow = try demo.run(["list", "places"], environment: ["COLUMNS": "28"])
        let lines = narrow.output.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 28 }, "\(lines)")
        #expect(lines.last == " 3  서울    a note far long…")
        // A pipe without $COLUMNS has no width: only the 40-column cap applies.
        let piped = try demo.run(["list", "places"])
        #expect(piped.output.contains("a note far longer than the terminal is …"))
    }

    @Test func dateTimesShowTheirSecondsAndAreKeptWhenNotChanged() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let list = try demo.run(["list", "events"])
        #expect(list.output.contains("2024-03-01 12:34:56"))
        // Another field changed at the prompts: the date-time is shown with its seconds and not written.
        let other = try demo.run(["edit", "events", "1"], stdin: "liftoff\n\ny\n")
        #expect(other.code == 0, "\(other)")
        #expect(other.errors.contains("at [2024-03-01 12:34:56]: "))
        #expect(try demo.query("SELECT name, at FROM events") == "liftoff|2024-03-01 12:34:56\n")
        // Seconds are typed as well.
        let typed = try demo.run(["edit", "events", "1"], stdin: "\n2024-03-01 12:34:57\ny\n")
        #expect(typed.code == 0, "\(typed)")
        #expect(try demo.run(["show", "events", "1"]).output.contains("at:   2024-03-01 12:34:57"))
        // And left out: the minute, at :00.
        let minutes = try demo.run(["set", "events", "1", "at=2024-03-02 08:15"])
        #expect(minutes.code == 0, "\(minutes)")
        #expect(try demo.run(["show", "events", "1"]).output.contains("at:   2024-03-02 08:15:00"))
    }
}
