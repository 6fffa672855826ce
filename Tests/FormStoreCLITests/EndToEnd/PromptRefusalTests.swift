import FormStoreTestSupport
import Foundation
import Testing

/// A save at the prompts that the schema refuses (a CHECK) asks the field it
/// names again, with what else was typed kept, as the full-screen form puts
/// the focus on it: it ended the edit (exit 65), and a password typed was lost.
@Suite struct PromptRefusalTests {
    @Test func aCheckRefusalAsksItsFieldAgain() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER CHECK (age >= 0 AND age < 150));
            INSERT INTO person VALUES (1, 'Ann', 39);
            """)
        let run = try db.run(["edit", "person", "1", "--plain"], stdin: "Anna\n200\ny\n40\ny\n")
        #expect(run.code == 0, "\(run)")
        #expect(run.errors.contains("Not saved:\n  ! age: CHECK constraint failed: age >= 0 AND age < 150\nage [200]: "), "\(run)")
        #expect(run.errors.hasSuffix("Saved: name, age.\n"), "\(run)")
        #expect(try db.query("SELECT name, age FROM person") == "Anna|40\n")
    }
}
