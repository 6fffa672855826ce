import FormStoreTestSupport
import Foundation
import Testing

/// A database built to attack the terminal (Fixtures/bad/databases/terminal-escapes.sql:
/// escape sequences, C1 controls, bidi overrides and zero-width characters in a
/// table name, column names, values, a CHECK's choices and a trigger's message).
/// Every command's text for a person reaches the terminal with none of them
/// raw; JSON stays exact; the database is never changed by looking at it.
@Suite struct HostileTerminalTests {
    static let fixture = packageRoot + "/Fixtures/bad/databases/terminal-escapes.sql"
    static let esc = "\u{1B}"
    static let title = "ti\u{1B}[2Jtle"
    static let hostileTable = "t\u{1B}]0;owned\u{07}"

    static func database() throws -> DemoDatabase {
        try DemoDatabase(sql: String(contentsOfFile: fixture, encoding: .utf8))
    }

    /// The scalars a terminal would act on or hide: controls other than a line
    /// break, bidi controls and zero-width characters.
    static func raw(_ text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A: return false
            case 0x00..<0x20, 0x7F, 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069,
                 0x200B...0x200F, 0x2060, 0xFEFF, 0x061C: return true
            default: return false
            }
        }.map { "U+" + String($0.value, radix: 16) }
    }

    static func expectNeutral(_ run: BinaryRun, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(raw(run.output).isEmpty, "\(what) stdout: \(raw(run.output))", sourceLocation: sourceLocation)
        #expect(raw(run.errors).isEmpty, "\(what) stderr: \(raw(run.errors))", sourceLocation: sourceLocation)
    }

    @Test func readCommandsPrintNoRawControls() throws {
        let db = try Self.database()
        let dump = try db.dump()
        let runs: [(String, [String])] = [
            ("forms", ["forms"]),
            ("list", ["list", "notes"]),
            ("list of the hostile table", ["list", Self.hostileTable]),
            ("show 1", ["show", "notes", "1"]),
            ("show 2", ["show", "notes", "2"]),
            ("form", ["form", "notes"]),
            ("missing record", ["show", "notes", "99"]),
            ("unknown form near a hostile name", ["list", "t\u{1B}]0;owne"]),
            ("where on a hostile column", ["list", "notes", "--where", "\(Self.title)=x\u{1B}[2J"]),
            ("unknown field", ["list", "notes", "--where", "nope\u{1B}[2J=1"]),
        ]
        for (what, arguments) in runs {
            let run = try db.run(arguments)
            Self.expectNeutral(run, what)
            #expect(!run.crashed, "\(what)")
        }
        let show = try db.run(["show", "notes", "1"])
        #expect(show.code == 0, "\(show)")
        // Shown, escaped: the reader sees that something is there and what.
        #expect(show.output.contains("ti\\e[2Jtle"), "\(show.output)")
        #expect(show.output.contains("plain\\e]52;c;SGVsbG8=\\x07\\e[2J"), "\(show.output)")
        #expect(show.output.contains("gnp.<U+202E>exe"), "\(show.output)")
        #expect(show.output.contains("x\\u{9b}y<U+2066>z<U+2069>"), "\(show.output)")
        let list = try db.run(["list", "notes"])
        #expect(list.output.contains("<U+202E>body<U+200B>"), "\(list.output)")
        #expect(try db.dump() == dump)
    }

    @Test func jsonStaysExact() throws {
        let db = try Self.database()
        let run = try db.run(["list", "notes", "--format", "json", "--where", "id=1"])
        #expect(run.code == 0, "\(run)")
        let rows = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]]
        #expect(rows?.first?[Self.title] as? String == "plain\u{1B}]52;c;SGVsbG8=\u{07}\u{1B}[2J")
        #expect(rows?.first?["\u{202E}body\u{200B}"] as? String == "gnp.\u{202E}exe")
    }

    /// SQLite's message from a trigger, a CHECK's choices and a did-you-mean
    /// all quote the database: each reaches stderr neutralised, and the failed
    /// write leaves the file's bytes as they were.
    @Test func failingWritesPrintNoRawControls() throws {
        let db = try Self.database()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: db.path))
        let trigger = try db.run(["set", "notes", "1", "\(Self.title)=boom"])
        #expect(trigger.code != 0, "\(trigger)")
        Self.expectNeutral(trigger, "trigger")
        #expect(trigger.errors.contains("refused\\e]52;c;SGVsbG8=\\x07\\e[2J"), "\(trigger.errors)")
        for (what, arguments) in [
            ("choice", ["set", "notes", "1", "status=nope"]),
            ("unknown field", ["set", "notes", "1", "titl=1"]),
            ("new with a bad choice", ["new", "notes", "status=\u{1B}[2J"]),
            ("delete of a missing record", ["delete", "notes", "99", "--yes"]),
        ] {
            let run = try db.run(arguments)
            #expect(run.code != 0, "\(what): \(run)")
            Self.expectNeutral(run, what)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: db.path)) == bytes)
    }

    @Test func aSuccessfulSetPrintsNoRawControls() throws {
        let db = try Self.database()
        let run = try db.run(["set", "notes", "2", "status=open"])
        #expect(run.code == 0, "\(run)")
        Self.expectNeutral(run, "set")
        #expect(try db.query("SELECT status FROM notes WHERE id = 2") == "open\n")
    }

    /// Prompts, the resume hint, `drafts` and `draft show` over hostile keys;
    /// the `--editor` document holds no raw control either, and reads back.
    @Test func editingPrintsNoRawControls() throws {
        let db = try Self.database()
        let dump = try db.dump()
        // The first prompt answered, then the end of input: a draft is kept.
        let prompts = try db.run(["edit", "notes", "1"], stdin: "changed\u{1B}[2J\n")
        #expect(prompts.code == 1, "\(prompts)")
        Self.expectNeutral(prompts, "prompts")
        let drafts = try db.run(["drafts"])
        Self.expectNeutral(drafts, "drafts")
        #expect(drafts.output.contains("notes"), "\(drafts)")
        let show = try db.run(["draft", "show", "notes", "1"])
        Self.expectNeutral(show, "draft show")
        #expect(show.output.contains("changed\\e[2J"), "\(show)")

        let copy = db.scratch.path + "/document.txt"
        let editor = try db.file("editor.sh", "cp \"$1\" '\(copy)'\n")
        let edit = try db.run(["edit", "notes", "2", "--editor"], environment: ["EDITOR": "/bin/sh '\(editor)'"])
        Self.expectNeutral(edit, "edit --editor")
        let document = try String(contentsOfFile: copy, encoding: .utf8)
        #expect(Self.raw(document).isEmpty, "\(Self.raw(document))")
        #expect(document.contains("\"ti\\u{1b}[2Jtle\": line one\\nline two\\rover"), "\(document)")
        #expect(document.contains("zero\\u{200b}width\\u{feff}"), "\(document)")
        #expect(try db.dump() == dump)
    }

    /// The resume hint quotes a hostile key in bash's `$'…'`: nothing raw
    /// reaches the terminal, and the command it shows names the same record.
    @Test func theResumeHintQuotesAHostileKey() throws {
        let db = try Self.database()
        let run = try db.run(["edit", "tags", "a\u{1B}[2Jb\u{202E}c"], stdin: "changed\n")
        #expect(run.code == 1, "\(run)")
        Self.expectNeutral(run, "resume hint")
        #expect(run.errors.contains(" edit tags $'a\\x1b[2Jb\\u202ec'"), "\(run.errors)")
        let echoed = try runProcess("/bin/bash", ["-c", "printf '%s' $'a\\x1b[2Jb\\u202ec'"])
        #expect(echoed.output == "a\u{1B}[2Jb\u{202E}c")
    }

    /// The document's `\u{…}` escapes read back: an edit that changes one
    /// field leaves the hostile bytes of the others as they were.
    @Test func theEditorDocumentReadsItsEscapesBack() throws {
        let db = try Self.database()
        let editor = try db.file("editor.sh", "sed -i 's/^status: shut.*/status: open/' \"$1\"\n")
        let edit = try db.run(["edit", "notes", "2", "--editor"], environment: ["EDITOR": "/bin/sh '\(editor)'"])
        #expect(edit.code == 0, "\(edit)")
        #expect(try db.query("SELECT quote(CAST(\"\u{202E}body\u{200B}\" AS BLOB)), status FROM notes WHERE id = 2")
            == "X'7A65726FE2808B7769647468EFBBBF'|open\n")
    }
}
