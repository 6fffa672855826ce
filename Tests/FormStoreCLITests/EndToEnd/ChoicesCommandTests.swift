import FormStoreTestSupport
import Foundation
import Testing

/// `formstore choices`: what a foreign key can refer to, through the built
/// binary, on a database the `sqlite3` shell made.
@Suite struct ChoicesCommandTests {
    static let schema = """
        CREATE TABLE track (id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE);
        CREATE TABLE playlist (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE playlist_track (
            playlist_id INTEGER NOT NULL REFERENCES playlist(id),
            track_id INTEGER NOT NULL REFERENCES track(id),
            position INTEGER NOT NULL,
            PRIMARY KEY (playlist_id, track_id)
        ) WITHOUT ROWID;
        INSERT INTO track VALUES (1, 'Blue'), (2, 'Green'), (3, 'Red'), (4, '100%');
        INSERT INTO playlist VALUES (1, 'Mix');
        """

    @Test func aForeignKeyListsTheReferencedRowsByLabel() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let found = try demo.run(["choices", "playlist_track", "track_id", "--search", "RE"])
        #expect(found.code == 0, "\(found)")
        #expect(found.output == "value  label\n2      Green\n3      Red\n")
        let json = try demo.run(["choices", "playlist_track", "track_id", "--format", "json", "--limit", "2"])
        #expect(json.output == "[\n  {\"value\": 4, \"label\": \"100%\"},\n  {\"value\": 1, \"label\": \"Blue\"}\n]\n")
        // `%` matches itself.
        let percent = try demo.run(["choices", "playlist_track", "track_id", "--search", "%"])
        #expect(percent.output == "value  label\n4      100%\n")
    }

    /// A BLOB key is offered as it is typed back into `set`.
    @Test func aBlobKeyIsOfferedAsTyped() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE badge (code BLOB PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE holder (id INTEGER PRIMARY KEY, badge BLOB REFERENCES badge(code));
            INSERT INTO badge VALUES (x'00ff', 'Night'), (x'414243', 'Day');
            INSERT INTO holder VALUES (1, NULL);
            """)
        let offered = try demo.run(["choices", "holder", "badge"])
        #expect(offered.output == "value      label\nx'414243'  Day\nx'00FF'    Night\n", "\(offered)")
        #expect(try demo.run(["set", "holder", "1", "badge=x'00FF'"]).code == 0)
        #expect(try demo.query("SELECT quote(badge) FROM holder") == "X'00FF'\n")
    }

    @Test func aFieldThatIsNoForeignKeyIsRefused() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let plain = try demo.run(["choices", "playlist_track", "position"])
        #expect(plain.code == 64)
        #expect(plain.errors.hasPrefix("Error: playlist_track: position is not a foreign key, so it offers no rows to pick\nUsage: formstore choices"))
        let unknown = try demo.run(["choices", "playlist_track", "trak"])
        #expect(unknown.code == 64)
    }

    @Test func aValueReferringToNoRowIsRefusedByName() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let before = try demo.dump()
        let missing = try demo.run(["new", "playlist_track", "playlist_id=1", "track_id=9", "position=1"])
        #expect(missing.code == 65)
        #expect(missing.errors == "formstore: track_id: no row of 'track' has id = 9\n")
        #expect(try demo.dump() == before)
    }
}
