import FormCore
import FormStorage
import FormStoragePostgres
import FormStoreTestSupport
import Foundation
import Testing

/// Specs kept in the database (`formstore_forms`) on both backends: an
/// application stores one through its store, and the command and `serve`
/// use it as if it were in the forms folder.
@Suite struct CommandKeptSpecConformanceTests {
    /// The people form under its own name, kept by the application.
    static func keep(_ form: Form, in backend: TestBackend) throws {
        if let sqlite = backend.store as? FormStore { try sqlite.storeSpec(of: form) }
        if let postgres = backend.store as? PostgresFormStore { try postgres.storeSpec(of: form) }
    }

    static var person: Form {
        var form = People.form()
        form.editsOtherTable = true
        return form
    }

    /// A spec naming a table the database lacks fails its own commands, and
    /// `forms` warns of it and lists the rest, on both backends: on
    /// PostgreSQL the whole list failed (exit 66).
    @Test(arguments: BackendKind.allCases)
    func aSpecOfAMissingTableIsWarnedOfAndTheRestListed(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        var ghost = Self.person
        ghost.name = "ghost"
        ghost.table = "ghosts"
        try Self.keep(ghost, in: backend)
        let forms = try runBinary(["--db", backend.location, "forms"])
        #expect(forms.code == 0 && forms.errors.contains("no table named 'ghosts' in the database (its commands fail)")
                && forms.output.contains("people"), "\(kind): \(forms)")
        let list = try runBinary(["--db", backend.location, "list", "ghost"])
        #expect(list.code == 66, "\(kind): \(list)")
    }

    @Test(arguments: BackendKind.allCases)
    func aKeptSpecIsListedShownAndWrittenThrough(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        try Self.keep(Self.person, in: backend)
        let db = ["--db", backend.location]
        let forms = try runBinary(db + ["forms"])
        #expect(forms.code == 0, "\(kind): \(forms)")
        #expect(forms.output.contains("person"), "\(kind): \(forms)")
        #expect(forms.output.contains("kept in the database"), "\(kind): \(forms)")
        let shown = try runBinary(db + ["show", "person", "1"])
        #expect(shown.code == 0, "\(kind): \(shown)")
        #expect(shown.output.contains("Name:       Ann Lee\n"), "\(kind): \(shown)")
        // The spec's kinds hold: an e-mail field refuses what is no address.
        let refused = try runBinary(db + ["set", "person", "1", "email=not an address"])
        #expect(refused.code == 65, "\(kind): \(refused)")
        let set = try runBinary(db + ["set", "person", "1", "email=ann@lee.example"])
        #expect(set.code == 0, "\(kind): \(set)")
        #expect(try backend.row("SELECT email FROM people WHERE id = 1") == ["ann@lee.example"])
    }

    @Test(arguments: BackendKind.allCases)
    func aSpecTableNobodyInitialisedIsNeverRead(_ kind: BackendKind) throws {
        let backend = try TestBackend(kind, schema: People.schema)
        try Self.keep(Self.person, in: backend)
        // Someone else's database: FormStore's migrations were never recorded there.
        try backend.execute("DROP TABLE formstore_migrations")
        let forms = try runBinary(["--db", backend.location, "forms"])
        #expect(forms.code == 0, "\(kind): \(forms)")
        #expect(!forms.output.contains("person"), "\(kind): \(forms)")
    }
}
