import Foundation
import Testing
import FormCore
@testable import FormStoreCLI

@Suite struct ArgumentParserTests {
    private let parser = CommandParser(root: FormStoreCommand.self)

    private func command<C: ParsableCommand>(_ tokens: [String], as type: C.Type) throws -> C {
        let invocation = try parser.parse(tokens)
        guard case .run(let command) = invocation.action, let typed = command as? C else {
            Issue.record("expected \(C.self), got \(invocation.action)")
            throw CLIError.failure("wrong command")
        }
        return typed
    }

    private func usageError(_ tokens: [String]) -> String? {
        do {
            _ = try parser.parse(tokens)
            return nil
        } catch let failure as CommandParser.Failure {
            #expect(failure.error.exitCode == .usage)
            return failure.error.message
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test func optionsTakeSeparateOrInlineValuesAndRepeat() throws {
        let list = try command(["list", "people", "--where", "name=Ann", "--where=colour=red",
                                "--limit=5", "--format", "csv"], as: ListCommand.self)
        #expect(list.form == "people")
        #expect(list.selection.conditions == [RecordCondition(field: "name", test: .compare(.equal, "Ann")),
                                              RecordCondition(field: "colour", test: .compare(.equal, "red"))])
        #expect(list.selection.limit == 5)
        #expect(list.format == .csv)
    }

    @Test func whereConditionsSortAndOffsetParse() throws {
        let list = try command(["list", "people", "--where", "age>=30", "--where", "name~ann", "--where", "note=a=b",
                                "--where", "company is null", "--where", "email IS NOT NULL", "--where", "age != 3",
                                "--sort", "-age", "--sort", "name", "--offset", "0", "--search", "50%"],
                               as: ListCommand.self)
        #expect(list.selection.conditions == [
            RecordCondition(field: "age", test: .compare(.greaterOrEqual, "30")),
            RecordCondition(field: "name", test: .compare(.contains, "ann")),
            RecordCondition(field: "note", test: .compare(.equal, "a=b")),
            RecordCondition(field: "company", test: .isNull),
            RecordCondition(field: "email", test: .isNotNull),
            RecordCondition(field: "age", test: .compare(.notEqual, " 3")),
        ])
        #expect(list.selection.sort == [RecordSelection.SortKey(field: "age", descending: true),
                                        RecordSelection.SortKey(field: "name", descending: false)])
        #expect(list.selection.offset == 0 && list.selection.search == "50%")
    }

    @Test func optionsMayComeBeforeArguments() throws {
        let list = try command(["list", "--limit", "2", "people"], as: ListCommand.self)
        #expect(list.form == "people" && list.selection.limit == 2)
    }

    @Test func globalOptionsBeforeOrAfterTheCommand() throws {
        let before = try parser.parse(["--db", "a.sqlite", "--forms=specs", "forms"])
        #expect(before.globals.value("db") == "a.sqlite")
        #expect(before.globals.value("forms") == "specs")
        let after = try parser.parse(["forms", "--db=b.sqlite"])
        #expect(after.globals.value("db") == "b.sqlite")
    }

    @Test func flagsAndShortFlags() throws {
        #expect(try command(["delete", "people", "3", "--yes"], as: DeleteCommand.self).confirmed)
        #expect(try command(["delete", "people", "3", "-y"], as: DeleteCommand.self).confirmed)
        #expect(try !command(["delete", "people", "3"], as: DeleteCommand.self).confirmed)
        #expect(usageError(["delete", "people", "3", "--yes=1"]) == "The option '--yes' does not take a value")
    }

    @Test func assignmentsSplitOnTheFirstEquals() throws {
        let set = try command(["set", "people", "3", "name=Ann", "note=a=b", "empty="], as: SetCommand.self)
        #expect(set.inputs == ["name": .typed("Ann"), "note": .typed("a=b"), "empty": .typed("")])
        #expect(set.key == .single("3"))
        #expect(usageError(["set", "people", "3", "oops"]) == "Expected FIELD=VALUE or FIELD:=JSON, got 'oops'")
        #expect(usageError(["set", "people", "3", "=x"]) == "Expected FIELD=VALUE or FIELD:=JSON, got '=x'")
        // `:=` with no field before it names none (it said "no field ':'").
        #expect(usageError(["set", "people", "3", ":=3"]) == "Expected FIELD=VALUE or FIELD:=JSON, got ':=3'")
        #expect(usageError(["set", "people", "3", "a=1", "a=2"]) == "Field 'a' is given more than once")
    }

    /// A field whose name holds an operator character is typed with a
    /// backslash before it, as a key's values are escaped.
    @Test func aFieldNameHoldingAnOperatorIsTypedEscaped() throws {
        let set = try command(["set", "t", "1", #"a\=b=c=d"#, #"x\\y=1"#], as: SetCommand.self)
        #expect(set.inputs == ["a=b": .typed("c=d"), #"x\y"#: .typed("1")])
        // A name ending in `:` is typed with the colon escaped, which is then no `:=`: it set the field `a`.
        let colon = try command(["set", "t", "1", #"a\:=8"#, #"b\::=9"#, #"c\\:=null"#], as: SetCommand.self)
        #expect(colon.inputs == ["a:": .typed("8"), "b:": .json(.int(9)), #"c\"#: .null])
        #expect(TypedName.typed("a:") == #"a\:"# && TypedName.typed("a:b") == "a:b")
        let list = try command(["list", "t", "--where", #"x\>y>3"#, "--where", #"a\=b="#, "--where", #"c\~d is null"#],
                               as: ListCommand.self)
        #expect(list.selection.conditions == [
            RecordCondition(field: "x>y", test: .compare(.greater, "3")),
            RecordCondition(field: "a=b", test: .compare(.equal, "")),
            RecordCondition(field: "c~d", test: .isNull),
        ])
    }

    @Test func colonEqualsTakesOneJSONValue() throws {
        let set = try command(["set", "people", "3", "note:=null", "nick:=\"\"", "qty:=3", "active:=true",
                               "name:=\"x=y\"", "tags:=[\"a\",\"b\"]"], as: SetCommand.self)
        #expect(set.inputs == ["note": .null, "nick": .emptyText, "qty": .json(.int(3)), "active": .typed("true"),
                               "name": .json("x=y"), "tags": .list(["a", "b"], json: #"["a","b"]"#)])
        #expect(usageError(["set", "people", "3", "qty:=three"])
            == "'qty:=' takes one JSON value such as null, 3, true or \"text\", and what follows is not one")
        #expect(usageError(["set", "people", "3", "qty:=1 2"])
            == "'qty:=' takes one JSON value such as null, 3, true or \"text\", and what follows is not one")
        #expect(usageError(["set", "people", "3", "qty:=12345678901234567890"])
            == "'qty:=' integer out of range (integers run from -9223372036854775808 to 9223372036854775807)")
        #expect(usageError(["set", "people", "3", "qty:=1e999"])
            == "'qty:=' number out of range (numbers run to ±1.7976931348623157e308)")
        // An object is its JSON text, compact (a JSON column's document).
        let object = try command(["set", "people", "3", #"meta:={"k": [1, 2], "e": {}}"#], as: SetCommand.self)
        #expect(object.inputs == ["meta": .json(.text(#"{"k":[1,2],"e":{}}"#))])
        #expect(usageError(["set", "people", "3", #"o:={"$base64": "!"}"#]) == "'o:=': $base64 is not valid base64")
    }

    @Test func terminatorMakesEverythingPositional() throws {
        let new = try command(["new", "people", "--", "--name=--x"], as: NewCommand.self)
        #expect(new.inputs == ["--name": .typed("--x")])
        let show = try command(["show", "--", "people", "-5"], as: ShowCommand.self)
        #expect(show.key == .single("-5"))
    }

    @Test func negativeNumbersArePositional() throws {
        #expect(try command(["show", "people", "-12"], as: ShowCommand.self).key == .single("-12"))
    }

    @Test func compositeKeysParseIntoColumnValuePairs() throws {
        #expect(try KeyArgument(parsing: "42") == .single("42"))
        #expect(try KeyArgument(parsing: "order=7,line=2") == .composite([.init(column: "order", value: "7"),
                                                                          .init(column: "line", value: "2")]))
        #expect(try KeyArgument(parsing: #"name=Smith\, John,city=a\=b"#)
            == .composite([.init(column: "name", value: "Smith, John"), .init(column: "city", value: "a=b")]))
        #expect(try KeyArgument(parsing: #"a\=b"#) == .single("a=b"))
        #expect(try KeyArgument(parsing: "x,y") == .single("x,y"))
        #expect(throws: CLIError.usage("Key column 'a' is given more than once")) { try KeyArgument(parsing: "a=1,a=2") }
        #expect(throws: CLIError.self) { try KeyArgument(parsing: "a=1,b") }
        #expect(throws: CLIError.usage("A record key cannot be empty; a key that is empty text is written with its column: "
                                       + "COLUMN= (for example code=)")) { try KeyArgument(parsing: "") }
        #expect(try KeyArgument(parsing: "code=").recordKey(primaryKey: ["code"]) == RecordKey("code", ""))
    }

    /// `col:=JSON` in a key: `null` names a row whose key SQLite let be
    /// NULL, a string or a number is its text; `\:=` is a column ending in `:`.
    @Test func aKeyPartGivenAsJSONIsNullOrItsText() throws {
        #expect(try KeyArgument(parsing: "code:=null") == .composite([.init(column: "code", value: nil)]))
        #expect(try KeyArgument(parsing: "code:=null").recordKey(primaryKey: ["code"]) == RecordKey("code", .null))
        #expect(try KeyArgument(parsing: #"a:="x\,y",b:=7"#).recordKey(primaryKey: ["a", "b"], kinds: ["b": .integer])
            == RecordKey(columns: ["a", "b"], values: ["x,y", 7]))
        #expect(try KeyArgument(parsing: #"a\:=1"#) == .composite([.init(column: "a:", value: "1")]))
        #expect(throws: CLIError.usage("'code:=' in a key takes null, a number or a JSON string; got 'true'")) {
            try KeyArgument(parsing: "code:=true")
        }
        #expect(throws: CLIError.usage("'code:=' in a key takes null, a number or a JSON string; got 'nul'")) {
            try KeyArgument(parsing: "code:=nul")
        }
    }

    @Test func keysResolveAgainstThePrimaryKey() throws {
        let key = try KeyArgument(parsing: "line=2,order=7").recordKey(primaryKey: ["order", "line"],
                                                                       kinds: ["order": .integer])
        #expect(key == RecordKey(columns: ["order", "line"], values: [.int(7), .text("2")]))
        #expect(throws: CLIError.self) { try KeyArgument.single("3").recordKey(primaryKey: ["a", "b"]) }
        #expect(throws: CLIError.self) { try KeyArgument(parsing: "a=1").recordKey(primaryKey: ["a", "b"]) }
        #expect(try KeyArgument(parsing: "name=a\\,b").text == "name=a\\,b")
        // A one-column key's value holding `=`, typed without `\=`: no part names the column.
        #expect(try KeyArgument(parsing: "c=d").recordKey(primaryKey: ["id"]) == RecordKey("id", "c=d"))
        #expect(try KeyArgument(parsing: "id=c=d").recordKey(primaryKey: ["id"]) == RecordKey("id", "c=d"))
        #expect(throws: CLIError.self) { try KeyArgument(parsing: "ID=5").recordKey(primaryKey: ["id"]) }
    }

    /// A stored record's key, typed (a page's address, a resume line, a
    /// listing), reads back as that record whatever its values hold.
    @Test func aRecordKeyTypedReadsBackAsItself() throws {
        let keys = [
            RecordKey(columns: ["a", "b"], values: [1, "x,y"]), RecordKey(columns: ["a", "b"], values: [1, "x=y"]),
            RecordKey(columns: ["a", "b"], values: [2, ""]), RecordKey(columns: ["a", "b"], values: [3, #"back\slash"#]),
            RecordKey("code", "a=b"), RecordKey("code", #"C:\dir"#), RecordKey("code", "x,y"), RecordKey("id", 7),
            RecordKey("code", .null), RecordKey(columns: ["a", "b"], values: [1, .null]), RecordKey(columns: ["a:", "b"], values: ["x", 1]),
            RecordKey("code", "NULL"),
        ]
        for key in keys {
            let typed = try KeyArgument(parsing: key.typedText)
            #expect(try typed.recordKey(primaryKey: key.columns, kinds: ["a": .integer, "b": .integer, "id": .integer]) == key, "\(key.typedText)")
        }
        #expect(RecordKey(columns: ["a", "b"], values: [1, "x,y"]).typedText == #"a=1,b=x\,y"#)
        #expect(RecordKey("code", .null).typedText == "code:=null")
        #expect(RecordKey(columns: ["a:", "b"], values: ["x", 1]).typedText == #"a\:=x,b=1"#)
        // A BLOB as SQL writes it, which a BLOB key column reads back; a date in ISO 8601.
        #expect(RecordKey("k", .data(Data([0x00, 0xFF]))).typedText == "x'00FF'")
        #expect(RecordKey("d", .date(Date(timeIntervalSince1970: 86_400))).typedText == "1970-01-02")
        #expect(RecordKey("d", .date(Date(timeIntervalSince1970: 86_401))).typedText == "1970-01-02T00:00:01Z")
    }

    @Test func draftTakesFormAndKeyOrAnId() throws {
        let byKey = try command(["draft", "show", "people", "a=1,b=2"], as: DraftShowCommand.self)
        #expect(byKey.reference == .record(form: "people", key: try KeyArgument(parsing: "a=1,b=2")))
        let byID = try command(["draft", "discard", "people#3"], as: DraftDiscardCommand.self)
        #expect(byID.reference == .id("people#3"))
    }

    @Test func importGuessesTheFormatFromTheExtension() throws {
        #expect(try command(["import", "people", "rows.csv"], as: ImportCommand.self).format == .csv)
        #expect(try command(["import", "people", "rows.json"], as: ImportCommand.self).format == .json)
        #expect(try command(["import", "people"], as: ImportCommand.self).format == .ndjson)
        #expect(try command(["import", "people", "rows.csv", "--format", "ndjson"], as: ImportCommand.self).format == .ndjson)
        #expect(try command(["import", "people", "-"], as: ImportCommand.self).file == nil)
    }

    /// `--delimiter` is CSV's: given, it makes the input CSV unless a
    /// format says otherwise, which it then contradicts; a `.tsv` file is
    /// CSV with tabs. It was ignored, and the file read as NDJSON.
    @Test func aDelimiterSaysTheInputIsCSV() throws {
        let semicolons = try command(["import", "people", "x.txt", "--delimiter", ";"], as: ImportCommand.self)
        #expect(semicolons.format == .csv && semicolons.delimiter == UInt8(ascii: ";"))
        let tsv = try command(["import", "people", "x.TSV"], as: ImportCommand.self)
        #expect(tsv.format == .csv && tsv.delimiter == UInt8(ascii: "\t"))
        #expect(try command(["import", "people", "--delimiter", "\\t"], as: ImportCommand.self).format == .csv)
        #expect(usageError(["import", "people", "x.ndjson", "--delimiter", ";"])
                == "--delimiter is for CSV, and the input is read as ndjson (give --format csv)")
    }

    @Test func usageErrors() {
        #expect(usageError(["lst"]) == "Unknown command 'lst'. Did you mean 'list'?")
        #expect(usageError(["frobnicate"]) == "Unknown command 'frobnicate'")
        #expect(usageError(["draft", "shw"]) == "Unknown subcommand 'shw'. Did you mean 'show'?")
        #expect(usageError(["list", "people", "--limt", "3"]) == "Unknown option '--limt'. Did you mean '--limit'?")
        #expect(usageError(["list", "people", "-q"]) == "Unknown option '-q'")
        #expect(usageError(["list"]) == "Missing expected argument '<form>'")
        #expect(usageError(["show", "people"]) == "Missing expected argument '<key>'")
        #expect(usageError(["set", "people", "3"]) == "Missing expected argument '<field=value> ...'")
        #expect(usageError(["list", "people", "extra"]) == "Unexpected argument 'extra'")
        #expect(usageError(["list", "people", "--limit"]) == "Missing value for '--limit <n>'")
        #expect(usageError(["list", "people", "--limit", "--format", "csv"]) == "Missing value for '--limit <n>'")
        #expect(usageError(["list", "people", "--format", "xml"])
            == "The value 'xml' is invalid for '--format <format>'. Please provide one of 'table', 'json', 'ndjson', 'csv'.")
        for bad in ["0", "-3", "ten", "1.5"] {
            #expect(usageError(["list", "people", "--limit", bad])
                == "The value '\(bad)' is invalid for '--limit <n>': expected a positive whole number.")
        }
        #expect(usageError(["new", "people", "a=1", "--json"]) == "Give values either as FIELD=VALUE or with --json, not both")
    }

    @Test func usageErrorsPrintErrorAndUsageOnStderrAndExit64() {
        let run = runTool(["list", "people", "--format", "xml"])
        #expect(run.code == .usage)
        #expect(run.output.isEmpty)
        #expect(run.errors.hasPrefix("Error: The value 'xml' is invalid for '--format <format>'."))
        #expect(run.errors.contains("\nUsage: formstore list <form> [--where <condition> ...] [--search <text>] [--sort <field> ...] [--offset <n>] [--limit <n>]"))
        #expect(run.errors.hasSuffix("  (see 'formstore list --help')\n"))
        #expect(run.errors.split(separator: "\n").count == 2)

        let unknown = runTool(["lst"])
        #expect(unknown.code.rawValue == 64)
        #expect(unknown.errors.hasPrefix("Error: Unknown command 'lst'. Did you mean 'list'?\nUsage: formstore [--db <path>]"))
    }

    @Test func suggestionsOnlyForCloseWords() {
        #expect(Suggestion.closest(to: "exprot", among: ["export", "import"]) == "export")
        #expect(Suggestion.closest(to: "zzzzzz", among: ["export", "import"]) == nil)
        #expect(Suggestion.distance("kitten", "sitting") == 3)
        #expect(Suggestion.distance("lsit", "list") == 1)
    }
}
