import FormStoreTestSupport
import Foundation
import Testing
@testable import FormStoreCLI

/// `formstore demo`, the README's first command: a database from the fixtures
/// and a tour that runs without a terminal.
@Suite struct DemoCommandTests {
    @Test func createsTheDemoAndPrintsTheTour() throws {
        let scratch = try TemporaryDirectory()
        let run = try runBinary(["demo"], directory: scratch.path)
        #expect(run.code == 0, "\(run)")
        let tour = run.output
        for expected in [
            "Created the demo database formstore-demo.sqlite.",
            "registration  Registration",
            "typed phone \"555.867.5309\" → shown (555) 867-5309, held as \"5558675309\"",
            "password2: Please enter the same password again",
            "acceptTerms: Please accept the terms and conditions to continue",
            "postal code \"10 115\" is held as \"10115\"",
            "after typing the old last name back: dirty = [\"age\"]",
            "the draft is offered and restores [\"firstName\"]",
            "lastName: was \"Lee\", yours \"Moss\", theirs \"Kim\" — nothing written",
            "theme → \"dark\"",
            "formstore --db formstore-demo.sqlite show profile 1",
        ] {
            #expect(tour.contains(expected), "missing from the tour: \(expected)")
        }
        let file = scratch.path + "/formstore-demo.sqlite"
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // The rows are in the database file itself: a copy of that file alone holds them.
        let copy = scratch.path + "/copy.sqlite"
        try FileManager.default.copyItem(atPath: file, toPath: copy)
        let copied = try runBinary(["--db", copy, "show", "register", "1", "--format", "json"])
        #expect(copied.code == 0, "\(copied)")
        #expect(copied.output.contains("\"phone\": \"5558675309\""))

        // The commands the tour suggests work on what it built.
        let show = try runBinary(["--db", file, "show", "register", "1", "--format", "json"])
        #expect(show.code == 0)
        #expect(show.output.contains("\"phone\": \"5558675309\""))
        #expect(!show.output.contains("hunter22"), "secure fields are masked")
    }

    /// `--db PATH demo` makes the demo at PATH, where the next commands read
    /// it (it was ignored, and the demo made in the working folder).
    @Test func theDemoGoesWhereDbSays() throws {
        let scratch = try TemporaryDirectory()
        let run = try runBinary(["--db", "mine.sqlite", "demo"], directory: scratch.path)
        #expect(run.code == 0 && run.output.hasPrefix("Created the demo database mine.sqlite."), "\(run)")
        #expect(FileManager.default.fileExists(atPath: scratch.path + "/mine.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/formstore-demo.sqlite"))
        #expect(try runBinary(["--db", "mine.sqlite", "show", "profile", "1"], directory: scratch.path).code == 0)
        let url = try runBinary(["--db", "postgresql://u@localhost/x", "demo"], directory: scratch.path)
        #expect(url.code == 64 && url.errors.contains("the demo is a SQLite file"), "\(url)")
    }

    @Test func runTwiceStartsFreshAndNeverOverwritesOtherFiles() throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.path + "/mine.sqlite"
        #expect(try runBinary(["demo", path]).code == 0)
        let again = try runBinary(["demo", path])
        #expect(again.code == 0)
        #expect(again.output.hasPrefix("Replaced the earlier demo at \(path)."))

        let other = scratch.path + "/notes.sqlite"
        try sqlite3(other, input: "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me');")
        let before = try sqlite3(other, [".dump"])
        let refused = try runBinary(["demo", other])
        #expect(refused.code == 1)
        #expect(refused.errors == "formstore: \(other) exists and is not a FormStore demo; it is left as it is (give another PATH)\n")
        #expect(try sqlite3(other, [".dump"]) == before)

        // A path that cannot be made is the one named.
        let nowhere = scratch.path + "/missing/demo.sqlite"
        let unmade = try runBinary(["demo", nowhere])
        #expect(unmade.code == 74)
        #expect(unmade.errors == "formstore: cannot open \(nowhere): unable to open the database file\n")
    }

    @Test func embeddedFixturesMatchTheFixturesFolder() throws {
        for (name, text) in EmbeddedFixtures.files {
            let onDisk = try String(contentsOfFile: packageRoot + "/Fixtures/" + name, encoding: .utf8)
            #expect(text == onDisk, "Fixtures/\(name) differs from its embedded copy: run Scripts/embed-resources.sh")
        }
        let specs = try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/Fixtures/forms")
            .filter { $0.hasSuffix(".json") }.map { "forms/" + $0 }
        #expect(Set(EmbeddedFixtures.files.keys) == Set(specs + ["demo.sql", "settings.json"]))
    }
}
