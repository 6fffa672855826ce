import FormStoreTestSupport
import Foundation
import Testing

/// `new`, `set` and `delete` through the built binary: values go through a
/// form session (transformers, validation, edit modes) and only what changed
/// is written; anything refused leaves the database as it was.
@Suite struct WriteCommandTests {
    @Test func setValidatesSavesOnlyWhatChangedAndPrintsTheChanges() throws {
        let demo = try DemoDatabase()
        let run = try demo.run(["set", "signup", "1", "firstName=  Annie ", "age=35", "lastName=Lee"])
        #expect(run.code == 0, "\(run)")
        #expect(run.output == "field      old  new\nfirstName  Ann  Annie\nage        34   35\n")
        #expect(try demo.query("SELECT firstName, lastName, age FROM signups WHERE id = 1") == "Annie|Lee|35\n")
        let json = try demo.run(["set", "signup", "1", "age=36", "--format", "json"])
        // JSON keeps each value's type: numbers as numbers.
        #expect(json.output == "[\n  {\"field\": \"age\", \"old\": 35, \"new\": 36}\n]\n")
        let same = try demo.run(["set", "signup", "1", "age=36"])
        #expect(same.code == 0)
        #expect(same.output.isEmpty)
        #expect(same.errors == "No changes.\n")
    }

    /// A trigger that changes the row's key leaves no row to read back by
    /// the key: the save is rolled back and says so. It was committed, and
    /// `set` said the record had been deleted (exit 66).
    @Test func anUpdateWhoseTriggerChangesTheKeyIsRolledBack() throws {
        let demo = try DemoDatabase(sql: """
            CREATE TABLE k (code TEXT PRIMARY KEY, v);
            INSERT INTO k VALUES ('ab', 'x');
            CREATE TRIGGER up AFTER UPDATE OF v ON k BEGIN UPDATE k SET code = upper(code) WHERE code = new.code; END;
            """)
        let before = try demo.dump()
        let run = try demo.run(["set", "k", "ab", "v=y"])
        #expect(run.code == 65, "\(run)")
        #expect(run.errors.contains("could not be read back by its key after the update (a trigger changed its key?): nothing was saved"), "\(run)")
        #expect(try demo.dump() == before)
    }

    @Test func setRefusesInvalidValuesListingEachFieldAndChangesNothing() throws {
        let demo = try DemoDatabase()
        let before = try demo.dump()
        let run = try demo.run(["set", "signup", "2", "age=200", "email=not-an-address", "firstName=Bob"])
        #expect(run.code == 65)
        #expect(run.output.isEmpty)
        #expect(run.errors == """
        formstore: signup 2: validation failed; nothing was saved
          email: E-mail is not a valid e-mail address
          age: Age must be between 0 and 119

        """)
        #expect(try demo.dump() == before)
    }

    @Test func secureValuesNeverAppearInErrors() throws {
        let demo = try DemoDatabase()
        let run = try demo.run(["set", "registration", "1", "password=sw0rdfish!", "username=ab"])
        #expect(run.code == 65)
        #expect(!run.errors.contains("sw0rdfish"))
        #expect(run.errors.contains("password2: Please enter the same password again"))
        let saved = try demo.run(["set", "registration", "1", "password=sw0rdfish!", "password2=sw0rdfish!"])
        #expect(saved.code == 0, "\(saved)")
        #expect(saved.output == "field     old   new\npassword  ••••  ••••\n")
        #expect(try demo.query("SELECT password FROM registrations WHERE id = 1") == "sw0rdfish!\n")
    }

    @Test func setInEditModeBeginsEditingAndSaves() throws {
        let demo = try DemoDatabase()
        let run = try demo.run(["set", "profile", "1", "lastName=Leigh", "birthdate=04/02/1990"])
        #expect(run.code == 0, "\(run)")
        #expect(try demo.query("SELECT lastName, birthdate FROM profiles WHERE id = 1") == "Leigh|1990-04-02\n")
        let iso = try demo.run(["set", "profile", "1", "birthdate=1990-04-03"])
        #expect(iso.code == 0, "\(iso)")
        #expect(try demo.query("SELECT birthdate FROM profiles WHERE id = 1") == "1990-04-03\n")
    }

    @Test func aFrozenFormRefusesChangesExceptFieldsEnabledWhenNotEditing() throws {
        let demo = try DemoDatabase()
        demo.formsDirectory = demo.scratch.path + "/forms"
        try demo.file("forms/frozen-login.json", """
        {"formstore": 1, "name": "frozen-login", "mode": "frozen", "table": "logins", "editsOtherTable": true, "primaryKey": ["id"],
         "sections": [{"fields": [
           {"key": "email", "label": "E-mail", "kind": "email"},
           {"key": "password", "label": "Password", "kind": "password", "enabledWhenNotEditing": true}]}]}
        """)
        let before = try demo.dump()
        let refused = try demo.run(["set", "frozen-login", "1", "email=bo@example.com"])
        #expect(refused.code == 65)
        #expect(refused.errors == "formstore: E-mail (email) cannot be changed: the form is frozen\n")
        let new = try demo.run(["new", "frozen-login", "email=bo@example.com", "password=x"])
        #expect(new.code == 65)
        #expect(new.errors.contains("frozen"))
        let delete = try demo.run(["delete", "frozen-login", "1", "--yes"])
        #expect(delete.code == 65)
        #expect(delete.errors == "formstore: frozen-login is frozen: records cannot be deleted\n")
        #expect(try demo.dump() == before)
        let allowed = try demo.run(["set", "frozen-login", "1", "password=changed!"])
        #expect(allowed.code == 0, "\(allowed)")
        #expect(try demo.query("SELECT password FROM logins") == "changed!\n")
    }

    @Test func newCreatesARecordThroughTheFormAndPrintsIt() throws {
        let demo = try DemoDatabase()
        let run = try demo.run(["new", "signup", "firstName=Cy", "lastName=Park", "email=CY@Example.com",
                                "password=pa55word", "age= 41"])
        #expect(run.code == 0, "\(run)")
        #expect(run.errors == "Created signup 3.\n")
        #expect(run.output.hasPrefix("id:         3\nFirst Name: Cy\n"))
        #expect(run.output.contains("Password:   ••••\n"))
        #expect(try demo.query("SELECT email, age FROM signups WHERE id = 3") == "cy@example.com|41\n")
    }

    @Test func newReadsAJSONObjectFromStdin() throws {
        let demo = try DemoDatabase()
        let run = try demo.run(["new", "profile", "--json", "--format", "json"],
                               stdin: #"{"firstName": "Di", "gender": "Female", "birthdate": "2001-02-03"}"#)
        #expect(run.code == 0, "\(run)")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(record["id"] as? Int == 3)
        #expect(record["birthdate"] as? String == "2001-02-03")
        #expect(try demo.query("SELECT firstName, gender, birthdate, version FROM profiles WHERE id = 3") == "Di|Female|2001-02-03|1\n")
    }

    @Test func newRefusesInvalidRecordsAndConstraintFailuresWritingNothing() throws {
        let demo = try DemoDatabase()
        let before = try demo.dump()
        let invalid = try demo.run(["new", "login", "email=nope"])
        #expect(invalid.code == 65)
        #expect(invalid.errors == """
        formstore: new login record: validation failed; nothing was saved
          email: E-mail is not a valid e-mail address
          password: Password is required

        """)
        // The spec does not require a first name; the table does: said by its column, exit 65.
        let constraint = try demo.run(["new", "signup", "email=x@example.com", "password=secret"])
        #expect(constraint.code == 65)
        #expect(constraint.errors == "formstore: signups.firstName cannot be empty: its column is NOT NULL; nothing was saved\n")
        // Emptied through the spec's field, the column is refused too: it stored '' unasked.
        let emptied = try demo.run(["set", "signup", "1", "firstName="])
        #expect(emptied.code == 65 && emptied.errors.contains("signups.firstName cannot be empty"), "\(emptied)")
        #expect(try demo.dump() == before)
        let unknown = try demo.run(["new", "signup", "shoe=9"])
        #expect(unknown.code == 64)
        #expect(unknown.errors.hasPrefix("Error: form signup has no field 'shoe'\nUsage: formstore new "))
        let typo = try demo.run(["set", "signup", "1", "agee=9"])
        #expect(typo.code == 64)
        #expect(typo.errors.hasPrefix("Error: form signup has no field 'agee'. Did you mean 'age'?\n"))
        let notJSON = try demo.run(["new", "signup", "--json"], stdin: "{\"email\": ")
        #expect(notJSON.code == 65)
        #expect(try demo.dump() == before)
    }

    @Test func deleteRemovesTheRecordAndMissingOnesExit66() throws {
        let demo = try DemoDatabase()
        let refused = try demo.run(["delete", "signup", "1"])
        #expect(refused.code == 64)
        let run = try demo.run(["delete", "signup", "1", "--yes"])
        #expect(run.code == 0, "\(run)")
        #expect(run.errors == "Deleted signup 1.\n")
        #expect(try demo.query("SELECT id FROM signups") == "2\n")
        let again = try demo.run(["delete", "signup", "1", "--yes"])
        #expect(again.code == 66)
        #expect(again.errors == "formstore: signup: no record with key 1\n")
        // Edit mode: delete begins editing first.
        let profile = try demo.run(["delete", "profile", "2", "-y"])
        #expect(profile.code == 0, "\(profile)")
        #expect(try demo.query("SELECT count(*) FROM profiles") == "1\n")
    }

    @Test func editPromptsThroughStdinAndSavesWhatChanged() throws {
        let demo = try DemoDatabase()
        let missing = try demo.run(["edit", "signup", "9"])
        #expect(missing.code == 66)
        // Keep, change, keep, keep, a bad age re-asked, a good one, then save.
        let run = try demo.run(["edit", "signup", "1"], stdin: "\nPark\n\n\nforty\n41\ny\n")
        #expect(run.code == 0)
        #expect(run.errors.contains("Age is not a number"))
        #expect(run.errors.contains("Last Name: Lee → Park"))
        #expect(!run.errors.contains("hunter22"), "the password is never shown")
        let shown = try demo.run(["show", "signup", "1", "--format", "json"])
        #expect(shown.output.contains("\"lastName\": \"Park\""))
        #expect(shown.output.contains("41"))
    }

    @Test func editInterruptedByEndOfInputKeepsADraftAndSaysHowToResume() throws {
        let demo = try DemoDatabase()
        let run = try demo.run(["edit", "signup", "1"], stdin: "\nPark\n")
        #expect(run.code == 1)
        #expect(run.errors.contains("To resume, run: formstore --db"))
        let drafts = try demo.run(["drafts", "signup", "--format", "json"])
        #expect(drafts.code == 0)
        #expect(drafts.output.contains("signup"))
    }

    /// Output that cannot be written (a full disk) is said in words, and a
    /// write command says its change was made, so that nobody runs it again.
    @Test func outputThatCannotBeWrittenIsSaidWithTheChangeMade() throws {
        let demo = try DemoDatabase(sql: "CREATE TABLE p (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO p VALUES (1, 'a');")
        func full(_ arguments: String) throws -> BinaryRun {
            try runProcess("/bin/sh", ["-c", "exec \"$0\" --db \"$1\" \(arguments) > /dev/full", try formstoreBinary(), demo.path])
        }
        let set = try full("set p 1 name=X")
        #expect(set.code == 74, "\(set)")
        #expect(set.errors.hasSuffix("formstore: cannot write output: No space left on device\n"
                                     + "  the command's change was made; only what it prints was lost\n"), "\(set)")
        #expect(try demo.query("SELECT name FROM p") == "X\n")
        let list = try full("list p")
        #expect(list.errors == "formstore: cannot write output: No space left on device\n", "\(list)")
    }

    /// An argument that is no UTF-8 text is refused by position: its bytes
    /// would be stored as U+FFFD, which nobody typed (a path, another file).
    @Test func anArgumentThatIsNoUTF8IsRefused() throws {
        let demo = try DemoDatabase(sql: "CREATE TABLE p (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO p VALUES (1, 'a');")
        let before = try demo.dump()
        let run = try runProcess("/bin/sh", ["-c", #"exec "$0" --db "$1" set p 1 "$(printf 'name=a\377b')""#,
                                             try formstoreBinary(), demo.path])
        #expect(run.code == 64, "\(run)")
        #expect(run.errors.hasPrefix("Error: argument 6 (name=a\u{FFFD}b) is not UTF-8 text: give values and paths in UTF-8\n"),
                "\(run)")
        #expect(try demo.dump() == before)
    }
}
