import FormStoreTestSupport
import Foundation
import Testing

/// Fields reaching into a JSON document column by a dotted path, on both
/// backends through the built binary: shown, filtered on, and written back
/// into the document with its other keys kept.
@Suite struct CommandJSONPathConformanceTests {
    static let schema = Schema(
        sqlite: """
            CREATE TABLE account (id INTEGER PRIMARY KEY, name TEXT NOT NULL, prefs TEXT);
            INSERT INTO account VALUES (1, 'Ann', '{"theme": "dark", "size": 12, "ui": {"lang": "en"}}'), (2, 'Bo', NULL);
            """,
        postgres: """
            CREATE TABLE account (id integer PRIMARY KEY, name text NOT NULL, prefs jsonb);
            INSERT INTO account VALUES (1, 'Ann', '{"theme": "dark", "size": 12, "ui": {"lang": "en"}}'), (2, 'Bo', NULL);
            """)

    static let spec = #"""
        {"formstore": 1, "name": "account", "table": "account", "primaryKey": ["id"],
         "sections": [{"fields": [{"key": "name", "label": "Name"}, {"key": "prefs.theme", "label": "Theme"},
                                  {"key": "prefs.ui.lang", "label": "Language"}]}]}
        """#

    /// A forms folder holding `spec`, removed with the value.
    static func specFolder() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        try Data(spec.utf8).write(to: folder.url.appendingPathComponent("account.json"))
        return folder
    }

    /// The document's keys as the database reads them: theme, size, ui.lang.
    static func document(_ backend: TestBackend, id: Int) throws -> [String?]? {
        switch backend.kind {
        case .sqlite:
            return try backend.row("SELECT json_extract(prefs, '$.theme'), json_extract(prefs, '$.size'), "
                                   + "json_extract(prefs, '$.ui.lang') FROM account WHERE id = \(id)")
        case .postgres:
            return try backend.row("SELECT prefs->>'theme', prefs->>'size', prefs#>>'{ui,lang}' FROM account WHERE id = \(id)")
        }
    }

    /// A path's change is the only change in the document's text: its other
    /// numbers stay as written (`1.50`, a whole number past 2^64), with its
    /// key order and escapes. The document was written anew (`1.5`,
    /// `1.2345678901234567e+19`, keys sorted).
    @Test(arguments: BackendKind.allCases)
    func aPathChangesOnlyItsMemberOfTheText(_ kind: BackendKind) throws {
        let original = #"{"size": 1.50, "big": 123456789012345678901, "ui": {"lang": "en"}, "s": "\u00e9"}"#
        let backend = try TestBackend(kind, schema: Schema(
            sqlite: "CREATE TABLE account (id INTEGER PRIMARY KEY, name TEXT NOT NULL, prefs TEXT); "
                + "INSERT INTO account VALUES (1, 'Ann', '\(original)');",
            postgres: "CREATE TABLE account (id integer PRIMARY KEY, name text NOT NULL, prefs json); "
                + "INSERT INTO account VALUES (1, 'Ann', '\(original)');"))
        let forms = try Self.specFolder()
        let set = try runBinary(["--db", backend.location, "--forms", forms.path, "set", "account", "1", "prefs.ui.lang=fr"])
        #expect(set.code == 0, "\(kind): \(set)")
        #expect(try backend.row("SELECT prefs FROM account")?[0] == original.replacingOccurrences(of: #""en""#, with: #""fr""#),
                "\(kind)")
        let added = try runBinary(["--db", backend.location, "--forms", forms.path, "set", "account", "1", "prefs.theme=dark"])
        #expect(added.code == 0, "\(kind): \(added)")
        #expect(try backend.row("SELECT prefs FROM account")?[0]
                == original.replacingOccurrences(of: #""en""#, with: #""fr""#).dropLast() + #","theme":"dark"}"#, "\(kind)")
        // A document with no object to reach into is refused, not written over (it was replaced by {"theme":…}).
        try backend.execute(#"UPDATE account SET prefs = '[1, 2]'"#)
        let refused = try runBinary(["--db", backend.location, "--forms", forms.path, "set", "account", "1", "prefs.theme=x"])
        #expect(refused.code == 65 && refused.errors.contains("holds no JSON object"), "\(kind): \(refused)")
        #expect(try backend.row("SELECT prefs FROM account")?[0] == "[1, 2]", "\(kind)")
    }

    @Test(arguments: BackendKind.allCases)
    func aPathIsShownFilteredOnAndWrittenIntoItsDocument(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: Self.schema)
        let forms = try Self.specFolder()
        let db = ["--db", backend.location, "--forms", forms.path]
        let shown = try runBinary(db + ["show", "account", "1"])
        #expect(shown.code == 0, "\(kind): \(shown)")
        #expect(shown.output.contains("Theme:    dark\n"), "\(kind): \(shown)")
        #expect(shown.output.contains("Language: en\n"), "\(kind): \(shown)")
        let set = try runBinary(db + ["set", "account", "1", "prefs.theme=light"])
        #expect(set.code == 0, "\(kind): \(set)")
        #expect(try Self.document(backend, id: 1) == ["light", "12", "en"])
        // A NULL document becomes one holding the path.
        let first = try runBinary(db + ["set", "account", "2", "prefs.ui.lang=fr"])
        #expect(first.code == 0, "\(kind): \(first)")
        #expect(try Self.document(backend, id: 2) == [nil, nil, "fr"])
        let found = try runBinary(db + ["list", "account", "--where", "prefs.theme=light", "--format", "ndjson"])
        #expect(found.code == 0, "\(kind): \(found)")
        #expect(found.output == "{\"id\": 1, \"name\": \"Ann\", \"prefs.theme\": \"light\", \"prefs.ui.lang\": \"en\"}\n",
                "\(kind): \(found)")
    }

    /// A save through a path is in the record's history, and a revert puts
    /// the member back, on both backends: PostgreSQL's history had no row
    /// for it (no column bears the field's name).
    @Test(arguments: BackendKind.allCases)
    func aPathsSaveIsInHistoryAndReverts(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: Self.schema)
        let forms = try Self.specFolder()
        let db = ["--db", backend.location, "--forms", forms.path]
        #expect(try runBinary(db + ["init"]).code == 0)
        #expect(try runBinary(db + ["set", "account", "1", "prefs.theme=light"]).code == 0)
        let history = try runBinary(db + ["history", "account", "1", "--format", "json"])
        #expect(history.code == 0 && history.output.contains(#""field": "prefs.theme", "old": "dark", "new": "light""#),
                "\(kind): \(history)")
        let change = try #require(history.output.firstRange(of: #""change": "#).map {
            history.output[$0.upperBound...].prefix { $0.isNumber }
        }, "\(kind): \(history)")
        let reverted = try runBinary(db + ["revert", "account", "1", "--change", String(change)])
        #expect(reverted.code == 0, "\(kind): \(reverted)")
        #expect(try Self.document(backend, id: 1) == ["dark", "12", "en"], "\(kind)")
    }
}
