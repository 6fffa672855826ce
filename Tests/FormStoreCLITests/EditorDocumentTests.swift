import FormStoreTestSupport
import Foundation
import Testing
import FormCore
@testable import FormStoreCLI

@Suite struct EditorDocumentTests {
    private let form = peopleForm()

    @Test func rendersCommentsAndOneLinePerEditableField() {
        let text = EditorDocument.render(form: form, values: ["id": "3", "name": "Ann", "colour": "Red",
                                                              "notes": "two\nlines", "password": "hunter2"],
                                         subject: "people 3")
        #expect(text.hasPrefix("# Editing people 3 (People).\n# Lines starting with '#' are ignored."))
        #expect(text.contains("\n# Name (text, required, at most 40 characters)\nname: Ann\n"))
        #expect(text.contains("\n# Favourite colour (choice)\n# choices: Red, Green, Blue\ncolour: Red\n"))
        #expect(text.contains("\n# Born (date)\n# format: yyyy-MM-dd\nborn: \n"))
        #expect(text.contains("\n# Anything else\nnotes: two\\nlines\n"))
        #expect(text.contains("\n# id: 3   (read-only)\n"))
        #expect(!text.contains("password"))
        #expect(!text.contains("hunter2"))
    }

    /// Interrupted, an edit keeps the lines the person changed that read,
    /// though another line does not (a document with child rows too).
    @Test func anInterruptedEditKeepsTheLinesThatRead() {
        let draft = Draft(id: "d", form: form.name, recordKey: RecordKey("id", 3), formVersion: 1, base: [:],
                          baseVersion: nil, values: [:], inputs: [:])
        let opened = "name: Ann\ncolour: Red\n"
        let saved = "name: Annie\ncolour Red\n[lines r1]\n"
        let kept = InterruptGuard.draft(draft, keeping: .init(opened: opened, saved: saved), of: form)
        #expect(kept?.inputs == ["name": "Annie"])
        #expect(InterruptGuard.draft(draft, keeping: .init(opened: opened, saved: opened), of: form) == nil)
    }

    /// A foreign key's row, as `show` names it, is a comment above its line:
    /// nothing the parse reads back.
    @Test func aForeignKeysRowIsACommentAboveIt() throws {
        let text = EditorDocument.render(form: form, values: ["name": "Ann", "colour": "Red"],
                                         referred: ["name": "Ann (no such people row)"])
        #expect(text.contains("\n# now: Ann (no such people row)\nname: Ann\n"))
        #expect(try EditorDocument.parse(text, form: form)["name"] == "Ann")
    }

    /// A BLOB column's field is headed as what it holds (`bytes`), as `form`
    /// says it; it was headed `text`, the kind its hex is typed as.
    @Test func aBlobColumnsFieldIsHeadedBytes() throws {
        let blob = Form(name: "b", sections: [Section(fields: [Field(key: "data").transform(.hex)])])
        let text = EditorDocument.render(form: blob, values: ["data": "x'00FF'"])
        #expect(text.contains("\n# data (bytes)\n"), "\(text)")
    }

    @Test func roundTripsAwkwardValues() throws {
        let values = ["name": "  spaced  ", "colour": "\"quoted\" start", "born": "",
                      "notes": "back\\slash\nnew line\ttab \\n literal"]
        let text = EditorDocument.render(form: form, values: values)
        #expect(text.contains("\nname: \"  spaced  \"\n"))
        #expect(try EditorDocument.parse(text, form: form) == values)
    }

    /// The header names every escape a value is read with, a Windows path's
    /// backslashes among them: typed as shown there, the path is stored as typed.
    @Test func theHeaderNamesTheEscapesAValueIsReadWith() throws {
        let text = EditorDocument.render(form: form, values: ["notes": #"C:\old"#])
        #expect(text.contains(#"# a tab \t, a backslash \\ (so C:\temp is typed C:\\temp);"#))
        #expect(text.contains("\nnotes: C:\\\\old\n"))
        let typed = text.replacingOccurrences(of: #"notes: C:\\old"#, with: #"notes: C:\\temp\\new"#)
        #expect(try EditorDocument.parse(typed, form: form)["notes"] == #"C:\temp\new"#)
    }

    /// Found by Scripts/fuzz.sh: a combining mark joined a backslash, or an
    /// escape's letter, into one Character and the escape was lost.
    @Test func nullAndEmptyTextAreWrittenApart() throws {
        let text = EditorDocument.render(form: form, values: ["name": "null", "colour": "", "notes": ""],
                                         emptyText: ["notes"])
        #expect(text.contains("\nname: \"null\"\n"))   // the word, quoted
        #expect(text.contains("\ncolour: \n"))          // no value
        #expect(text.contains("\nnotes: \"\"\n"))        // empty text
        let inputs = try EditorDocument.parseInputs("name: \"null\"\ncolour: null\nnotes: \"\"\nborn:\n", form: form)
        #expect(inputs == ["name": .typed("null"), "colour": .null, "notes": .emptyText, "born": .typed("")])
    }

    @Test func roundTripsCombiningMarksAfterEscapesAndQuotes() throws {
        for note in ["a\n\u{07A9}b", "back\\\u{0301}slash", "\"\u{0301}quoted", "\u{0301} mark first",
                     "ends in a space \u{0301} ", "\t\u{0301}", "\"\\\n\"\u{1E}r"] {
            let text = EditorDocument.render(form: form, values: ["notes": note])
            let parsed = try EditorDocument.parse(text, form: form)
            #expect(parsed["notes"]?.unicodeScalars.elementsEqual(note.unicodeScalars) == true,
                    "\(note.debugDescription) came back as \(parsed["notes"]?.debugDescription ?? "nothing")")
        }
    }

    @Test func roundTripsAwkwardFieldNames() throws {
        let form = Form(name: "odd", sections: [Section(fields: [
            Field(key: "first name"), Field(key: "a:b"), Field(key: "#tag"),
        ])])
        let values = ["first name": "Ann", "a:b": "x: y", "#tag": "t"]
        let text = EditorDocument.render(form: form, values: values)
        #expect(text.contains("\nfirst name: Ann\n\"a:b\": x: y\n") || text.contains("\n\"a:b\": x: y\n"))
        #expect(try EditorDocument.parse(text, form: form) == values)
    }

    @Test func errorsAndConflictsAreShownAsComments() {
        let text = EditorDocument.render(form: form, values: ["name": "Ann"],
                                         errors: ["name: must not be empty"],
                                         conflicts: [.init(field: "name", theirs: "Annie")])
        #expect(text.contains("#\n# ERRORS: fix them, then save again:\n#   name: must not be empty\n"))
        #expect(text.contains("#   name: now Annie\n"))
        #expect(text.contains("# CONFLICT: now Annie in the database\nname: Ann\n"))
        let parsed = try? EditorDocument.parse(text, form: form)
        #expect(parsed == ["name": "Ann", "colour": "", "born": "", "notes": ""])
    }

    @Test func parseIgnoresCommentsBlankLinesAndIndentation() throws {
        let text = "# header\n\n   name:Ann  \r\n\t# another\n  notes:   \n"
        #expect(try EditorDocument.parse(text, form: form) == ["name": "Ann", "notes": ""])
    }

    @Test func emptyDocumentMeansCancelled() {
        #expect(throws: EditorDocumentError.cancelled) { try EditorDocument.parse("", form: form) }
        #expect(throws: EditorDocumentError.cancelled) { try EditorDocument.parse("# only\n  \n#comments\n", form: form) }
    }

    @Test func badLinesAreReportedWithTheirNumbers() {
        let text = """
        # comment
        name: Ann
        nmae: typo
        no colon here
        name: again
        id: 4
        password: secret
        notes: "unterminated
        """
        #expect(throws: EditorDocumentError.invalid([
            InputError(line: 3, message: "unknown field 'nmae' (did you mean 'name'?)"),
            InputError(line: 4, message: "expected 'field: value'"),
            InputError(line: 5, message: "'name' is given twice (first on line 2)"),
            InputError(line: 6, message: "'id' is read-only"),
            InputError(line: 7, message: "'password' is secret and cannot be set in a document"),
            InputError(line: 8, message: "unterminated quoted value (a value that starts with a quote must end with one)"),
        ])) {
            try EditorDocument.parse(text, form: form)
        }
    }

    @Test func errorsReadAsOneLineEach() {
        let error = EditorDocumentError.invalid([InputError(line: 3, message: "unknown field 'x'")])
        #expect(error.messages == ["line 3: unknown field 'x'"])
        #expect(CLIError.classifying(error).exitCode == .validationFailed)
    }
}

@Suite struct EditorLauncherTests {
    @Test func editorChoiceFollowsVisualThenEditorThenVi() {
        #expect(EditorLauncher(environment: ["VISUAL": "nano", "EDITOR": "ed"]).editor == "nano")
        #expect(EditorLauncher(environment: ["VISUAL": " ", "EDITOR": "ed"]).editor == "ed")
        #expect(EditorLauncher(environment: [:]).editor == "vi")
    }

    @Test func runsAScriptedEditorWithArgumentsOnAPrivateFile() throws {
        let scratch = try TemporaryDirectory()
        let log = scratch.path + "/log"
        // Records the file's mode and folder, then edits it in place.
        let editor = try scratch.script("fake-editor", """
        stat -c '%a' "$2" > \(log); dirname "$2" >> \(log)
        sed -i "s/$1/Bob/" "$2"
        """)
        let launcher = EditorLauncher(environment: ["EDITOR": "\(editor) Ann", "TMPDIR": scratch.path,
                                                    "PATH": "/usr/bin:/bin"])
        let result = try launcher.edit("# doc\nname: Ann\n")
        #expect(result.text == "# doc\nname: Bob\n" && result.notUTF8.isEmpty)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines == ["600", Substring(scratch.path)])
        // The temporary file is gone.
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasPrefix("formstore-edit-") }
        #expect(left.isEmpty)
    }

    /// The lines of a document saved in another encoding are found, each by its number.
    @Test func linesThatAreNoUTF8AreFound() {
        #expect(EditorLauncher.linesNotUTF8(Data("a: 1\nb: é\n".utf8)).isEmpty)
        #expect(EditorLauncher.linesNotUTF8(Data([0x61, 0x0A, 0x62, 0xE9, 0x0A, 0x63, 0x0A, 0xFF])) == [2, 4])
    }

    /// A byte order mark an editor saves before the text is no part of it.
    @Test func aByteOrderMarkIsLeftOut() throws {
        let scratch = try TemporaryDirectory()
        let editor = scratch.path + "/bom.sh"
        try #"printf '\357\273\277' | cat - "$1" > "$1.new" && sed -i 's/^a: .*/a: 2/' "$1.new" && mv "$1.new" "$1""#
            .write(toFile: editor, atomically: true, encoding: .utf8)
        let launcher = EditorLauncher(environment: ["EDITOR": "/bin/sh \(editor)", "TMPDIR": scratch.path,
                                                    "PATH": "/usr/bin:/bin"])
        #expect(try launcher.edit("# doc\na: 1\n").text == "# doc\na: 2\n")
    }

    @Test func aFailingEditorIsAnError() throws {
        let scratch = try TemporaryDirectory()
        let launcher = EditorLauncher(environment: ["EDITOR": "false", "TMPDIR": scratch.path, "PATH": "/usr/bin:/bin"])
        let failed = #expect(throws: EditorLauncher.Failed.self) { try launcher.edit("x") }
        #expect(failed?.message == "the editor 'false' exited with status 1")
        #expect(failed?.document.saved == "x")
    }
}
