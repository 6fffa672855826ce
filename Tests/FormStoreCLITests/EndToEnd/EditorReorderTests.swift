import FormStoreTestSupport
import Foundation
import Testing

/// Reordering child rows through the `$EDITOR` document, end to end: a spec
/// group with an order column, its blocks moved by the editor (a script),
/// saved, and the order column read back with the `sqlite3` shell. An
/// inferred form guesses no order column, so there the blocks' order is not
/// the rows' order.
@Suite struct EditorReorderTests {
    static let schema = """
        CREATE TABLE playlist (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE track (id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE);
        CREATE TABLE playlist_track (
            playlist_id INTEGER NOT NULL REFERENCES playlist(id),
            track_id INTEGER NOT NULL REFERENCES track(id),
            position INTEGER NOT NULL,
            PRIMARY KEY (playlist_id, track_id)
        ) WITHOUT ROWID;
        INSERT INTO playlist VALUES (1, 'Mix');
        INSERT INTO track VALUES (1, 'Blue'), (2, 'Green'), (3, 'Red');
        INSERT INTO playlist_track VALUES (1, 1, 1), (1, 2, 2), (1, 3, 3);
        """

    static let spec = """
        {"formstore": 1, "name": "playlist", "primaryKey": "id",
         "sections": [
           {"fields": [{"key": "name", "kind": "text", "required": true}]},
           {"title": "Tracks", "fields": [{"key": "track_id", "label": "Track", "kind": "integer", "required": true}],
            "group": {"key": "tracks", "table": "playlist_track", "foreignKey": ["playlist_id"],
                      "keyFields": ["playlist_id", "track_id"], "orderColumn": "position"}}]}
        """

    /// An editor that writes the group's row blocks in reverse order (and
    /// keeps a copy of the document it was given as `shown.txt`).
    private func reversingEditor(_ demo: DemoDatabase, group: String) throws -> String {
        let script = try demo.file("reverse.sh", #"""
            cp "$1" "\#(demo.scratch.path)/shown.txt"
            awk '
            /^\[\#(group) r[0-9]+\]$/ { n++; b[n] = $0 "\n"; inb = 1; next }
            inb && (/^$/ || /^\[/) { for (i = n; i >= 1; i--) printf "%s", b[i]; inb = 0 }
            inb { b[n] = b[n] $0 "\n"; next }
            { print }
            END { if (inb) for (i = n; i >= 1; i--) printf "%s", b[i] }
            ' "$1" > "$1.new" && cat "$1.new" > "$1" && rm "$1.new"
            """#)
        return "/bin/sh '\(script)'"
    }

    @Test func movingBlocksReordersTheRowsThroughTheOrderColumn() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        demo.formsDirectory = demo.scratch.path + "/forms"
        try demo.file("forms/playlist.json", Self.spec)
        let run = try demo.run(["edit", "playlist", "1", "--editor", "--children"],
                               environment: ["EDITOR": try reversingEditor(demo, group: "tracks")])
        #expect(run.code == 0, "\(run)")
        #expect(run.errors.contains("Saved playlist 1"))
        let shown = try String(contentsOfFile: demo.scratch.path + "/shown.txt", encoding: .utf8)
        #expect(shown.contains("the blocks' order is the rows' order"))
        #expect(try demo.query("SELECT track_id FROM playlist_track WHERE playlist_id = 1 ORDER BY position")
                == "3\n2\n1\n")
        #expect(try demo.query("SELECT count(DISTINCT position) FROM playlist_track") == "3\n")
        // Read again, the rows come in the new order.
        let shownAgain = try demo.run(["show", "playlist", "1", "--children", "--format", "json"])
        #expect(shownAgain.output.contains("""
              "tracks": [
                {"track_id": 3, "_labels": {"track_id": "Red"}},
                {"track_id": 2, "_labels": {"track_id": "Green"}},
                {"track_id": 1, "_labels": {"track_id": "Blue"}}
              ]
            """), "\(shownAgain)")
    }

    @Test func anInferredFormGuessesNoOrderColumn() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let before = try demo.dump()
        let run = try demo.run(["edit", "playlist", "1", "--editor", "--children"],
                               environment: ["EDITOR": try reversingEditor(demo, group: "playlist_track")])
        let shown = try String(contentsOfFile: demo.scratch.path + "/shown.txt", encoding: .utf8)
        #expect(shown.contains("[playlist_track r1]"))
        #expect(!shown.contains("the blocks' order is the rows' order"))
        // The position column is a column like any other: moving blocks writes nothing.
        #expect(run.code == 0, "\(run)")
        #expect(try demo.dump() == before)
    }
}
