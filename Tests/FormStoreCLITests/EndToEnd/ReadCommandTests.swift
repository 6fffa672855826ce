import FormStoreTestSupport
import Foundation
import Testing

/// `forms`, `form`, `list`, `show` and `export` run through the built binary
/// against a database built by the sqlite3 shell from Fixtures/demo.sql.
@Suite struct ReadCommandTests {
    @Test func formsListsSpecsThenEveryTable() throws {
        let demo = try DemoDatabase()
        let run = try demo.run(["forms", "--format", "json"])
        #expect(run.code == 0, "\(run)")
        let forms = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]])
        let names = forms.map { "\($0["source"]!):\($0["name"]!)" }
        #expect(names.prefix(6) == ["spec:basic-info", "spec:login", "spec:profile", "spec:register",
                                    "spec:registration", "spec:signup"])
        #expect(names.contains("table:order items"))
        #expect(!names.contains { $0.contains("formstore_") })
        #expect(run.errors.isEmpty)
    }

    @Test func formsSaysWhichAreViews() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT);
            CREATE VIEW adults AS SELECT id, name FROM people;

            """)
        let run = try db.run(["forms"])
        #expect(run.code == 0, "\(run)")
        let inferred = run.output.split(separator: "\n").filter { $0.hasSuffix("inferred") }
        #expect(inferred.map { $0.split(separator: " ").prefix(3).joined(separator: " ") }
                    == ["adults adults view", "people people table"])
    }

    @Test func formDescribesASpecAsTextJSONAndJSONSchema() throws {
        let demo = try DemoDatabase()
        let text = try demo.run(["form", "signup"])
        #expect(text.code == 0)
        #expect(text.output.contains("  age: Age (integer, from 0 to 119)\n"))
        let json = try demo.run(["form", "signup", "--format", "json"])
        #expect((try? JSONSerialization.jsonObject(with: Data(json.output.utf8))) != nil)
        let schema = try demo.run(["form", "signup", "--format", "json-schema"])
        #expect(schema.code == 0)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(schema.output.utf8)) as? [String: Any])
        // The password is writeOnly: required on input, never in a record as read.
        #expect(Set(parsed["required"] as? [String] ?? []) == ["email"])
        let properties = try #require(parsed["properties"] as? [String: [String: Any]])
        #expect(properties["password"]?["writeOnly"] as? Bool == true)
        #expect(properties["age"] != nil)
    }

    @Test func aSpecIsDescribedWithoutADatabase() throws {
        let scratch = try TemporaryDirectory()
        let run = try runBinary(["--db", scratch.path + "/none.sqlite", "--forms", DemoDatabase.fixtureForms,
                                 "form", "login", "--format", "json-schema"])
        #expect(run.code == 0, "\(run)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/none.sqlite"))
    }

    @Test func listPrintsEveryFormatInKeyOrder() throws {
        let demo = try DemoDatabase()
        let table = try demo.run(["list", "signup"])
        #expect(table.code == 0)
        #expect(table.output == """
        id  firstName  lastName  email            password  age
        1   Ann        Lee       ann@example.com  ••••       34
        2   Bo         Kim       bo@example.com   ••••       27

        """)
        let csv = try demo.run(["list", "signup", "--format", "csv"])
        #expect(csv.output == "id,firstName,lastName,email,password,age\r\n1,Ann,Lee,ann@example.com,••••,34\r\n2,Bo,Kim,bo@example.com,••••,27\r\n")
        let ndjson = try demo.run(["list", "signup", "--format", "ndjson", "--limit", "1"])
        #expect(ndjson.output == "{\"id\": 1, \"firstName\": \"Ann\", \"lastName\": \"Lee\", \"email\": \"ann@example.com\", \"password\": \"••••\", \"age\": 34}\n")
        let json = try demo.run(["list", "signup", "--format", "json", "--show-secure"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["password"] as? String } == ["hunter22", "letmein!"])
    }

    @Test func listWhereParsesTheValueThroughItsField() throws {
        let demo = try DemoDatabase()
        // " 27 " is typed text: the integer transformer trims and parses it.
        let byAge = try demo.run(["list", "signup", "--where", "age= 27 ", "--format", "ndjson"])
        #expect(byAge.code == 0, "\(byAge)")
        #expect(byAge.output.contains("\"firstName\": \"Bo\""))
        #expect(byAge.output.split(separator: "\n").count == 1)
        // The e-mail kind lower-cases what is typed.
        let byEmail = try demo.run(["list", "login", "--where", "email=ANN@Example.com", "--format", "csv"])
        #expect(byEmail.output.hasSuffix("1,ann@example.com,••••\r\n"))
        let both = try demo.run(["list", "signup", "--where", "age=27", "--where", "lastName=Lee", "--format", "csv"])
        #expect(both.output == "id,firstName,lastName,email,password,age\r\n")
        // An empty value matches NULL.
        let empty = try demo.run(["list", "register", "--where", "phone=", "--format", "ndjson"])
        #expect(empty.code == 0)
        #expect(empty.output.isEmpty)
        let dates = try demo.run(["list", "profile", "--where", "birthdate=12/31/1985", "--format", "csv"])
        #expect(dates.output.contains("Bo,Kim"))
        let iso = try demo.run(["list", "profile", "--where", "birthdate=1985-12-31", "--format", "csv"])
        #expect(iso.output == dates.output)
    }

    @Test func listWhereRejectsUnknownFieldsAndValuesThatDoNotParse() throws {
        let demo = try DemoDatabase()
        let unknown = try demo.run(["list", "signup", "--where", "shoe=9"])
        #expect(unknown.code == 64)
        #expect(unknown.errors.hasPrefix("Error: --where: form signup has no field 'shoe'\n"))
        let typo = try demo.run(["list", "signup", "--where", "agee>3"])
        #expect(typo.code == 64)
        #expect(typo.errors.hasPrefix("Error: --where: form signup has no field 'agee'. Did you mean 'age'?\n"))
        let bad = try demo.run(["list", "signup", "--where", "age=old"])
        #expect(bad.code == 65)
        #expect(bad.errors == "formstore: --where age: Age is not a number\n")
        #expect(bad.output.isEmpty)
    }

    @Test func showPrintsOneRecordAsTextOrJSON() throws {
        let demo = try DemoDatabase()
        let text = try demo.run(["show", "profile", "2"])
        #expect(text.code == 0)
        #expect(text.output == "id:         2\nFirst Name: Bo\nLast Name:  Kim\nGender:     Male\nBirthdate:  12/31/1985\n")
        let json = try demo.run(["show", "registration", "1", "--format", "json"])
        let record = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(record["username"] as? String == "jdoe")
        #expect(record["password"] as? String == "••••")
        #expect(record["acceptTerms"] as? Bool == true)
    }

    @Test func missingRecordsFormsAndDatabasesExit66() throws {
        let demo = try DemoDatabase()
        let record = try demo.run(["show", "profile", "9"])
        #expect(record.code == 66)
        #expect(record.errors == "formstore: profile: no record with key 9\n")
        let form = try demo.run(["list", "signups2"])
        #expect(form.code == 66)
        #expect(form.errors == "formstore: no form or table named 'signups2'. Did you mean 'signups'?\n")
        let missing = demo.scratch.path + "/missing.sqlite"
        for command in [["list", "signups"], ["show", "signups", "1"], ["export", "signups"], ["forms"],
                        ["set", "signups", "1", "age=3"], ["new", "signups"], ["import", "signups"],
                        ["delete", "signups", "1", "--yes"], ["drafts"]] {
            let run = try runBinary(["--db", missing] + command)
            #expect(run.code == 66, "\(command): \(run)")
            #expect(run.errors == "formstore: no database at \(missing) (create one with 'formstore init')\n")
            #expect(!FileManager.default.fileExists(atPath: missing), "\(command) created the file")
        }
    }

    @Test func theDatabaseComesFromTheEnvironmentWhenNotGiven() throws {
        let demo = try DemoDatabase()
        let run = try runBinary(["list", "logins", "--format", "csv"], environment: ["FORMSTORE_DB": demo.path])
        #expect(run.code == 0, "\(run)")
        #expect(run.output.contains("ann@example.com"))
        let scratch = try TemporaryDirectory()
        let local = try runBinary(["list", "logins"], directory: scratch.path)
        #expect(local.errors.contains("no database at \(scratch.path)/formstore.sqlite"))
    }

    @Test func exportLeavesSecureFieldsOutUnlessAsked() throws {
        let demo = try DemoDatabase()
        let plain = try demo.run(["export", "login"])
        #expect(plain.code == 0)
        #expect(plain.output == "{\"id\": 1, \"email\": \"ann@example.com\"}\n")
        let shown = try demo.run(["export", "login", "--show-secure", "--format", "csv"])
        #expect(shown.output == "id,email,password\r\n1,ann@example.com,hunter22\r\n")
    }
}
