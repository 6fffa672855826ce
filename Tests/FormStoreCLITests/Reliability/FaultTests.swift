import FormStoreTestSupport
import Foundation
import Testing
import FormCore
import FormStorage
@testable import FormStoreCLI

/// Storage that fails under an editing session (FormSession over FormStore,
/// drafts on): each failure has a clear message and the documented exit code,
/// the session stays usable, and what was typed survives as a draft or in its
/// fallback file.
///
/// Tests run as root, so `chmod` cannot make a file read-only and there is no
/// `chattr` or mount: a read-only file is modelled by `Configuration.readOnly`
/// and the `file:…?mode=ro` URI, a read-only directory (or medium) by the
/// `file:…?immutable=1` URI, with which SQLite creates no -wal, -shm or
/// journal file and takes no lock.
@Suite struct SessionFaultTests {
    @Test func aFullDatabaseKeepsTheDraftInItsFileAndSavesOnceThereIsRoom() throws {
        let bench = try FaultBench()
        let store = try bench.store()
        let session = try bench.session(store)
        try store.database.writeWithoutTransaction { conn in
            let pages = try conn.fetchValue(Int.self, "PRAGMA page_count") ?? 1
            try conn.execute("PRAGMA max_page_count = \(pages)")
        }
        // Larger than a page: neither the record nor its draft fits.
        try bench.type(into: session, lastName: String(repeating: "Long", count: 5_000))
        let error = try bench.failedSave(session)
        #expect(error.isFull)
        #expect(bench.classified(error) == .storage("cannot write \(bench.path): the database or the disk is full"))
        try bench.expectDraftKept(by: session, inFallback: true)

        try store.database.writeWithoutTransaction { try $0.execute("PRAGMA max_page_count = 1073741823") }
        try bench.expectSaves(session)
    }

    @Test(arguments: ReadOnlyAccess.allCases)
    func aReadOnlyDatabaseKeepsTheDraftInItsFile(_ access: ReadOnlyAccess) throws {
        let bench = try FaultBench()
        _ = try bench.store()  // FormStore's tables exist, as after `init`
        let readOnly = try access.open(bench.path)
        let session = try bench.session(readOnly)
        try bench.type(into: session)
        let error = try bench.failedSave(session)
        #expect(error.isReadOnly, "\(error)")
        #expect(bench.classified(error, at: readOnly.database.path) == .storage("cannot write \(readOnly.database.path): the database is read-only"))
        try bench.expectDraftKept(by: session, inFallback: true)
        // Still usable: editing goes on, and the draft follows.
        try session.set("firstName", input: "Ada")
        session.close()
        #expect(try bench.fallback.draft(id: session.draftSnapshot.id)?.values["firstName"] == .text("Ada"))

        // Once the file is writable, the draft is offered and saved, and its file goes.
        let writable = try bench.store()
        let reopened = try bench.session(writable)
        let draft = try #require(reopened.offeredDrafts.first)
        #expect(try reopened.restore(draft).restored == ["age", "firstName", "lastName"])
        try bench.expectSaves(reopened, firstName: "Ada")
    }

    @Test func aLockHeldPastTheBusyTimeoutExits75AndTheSessionSavesLater() throws {
        let bench = try FaultBench()
        let store = try bench.store { $0.busyTimeout = .milliseconds(100) }
        let session = try bench.session(store)
        let holder = try LockHolder(bench.path)
        try bench.type(into: session)
        let error = try bench.failedSave(session)
        #expect(error.isBusy)
        #expect(bench.classified(error) == .conflict("\(bench.path): the database is locked by another process (try again)"))
        try bench.expectDraftKept(by: session, inFallback: true)
        try holder.release()
        try bench.expectSaves(session)
    }

    @Test func aMissingDirectoryOrADamagedFileCannotBeOpened() throws {
        let bench = try FaultBench()
        let missing = bench.demo.scratch.path + "/no/such/folder/x.sqlite"
        let cannotOpen = try #require(databaseError { _ = try FormStore(path: missing) })
        #expect(bench.classified(cannotOpen, at: missing) == .storage("cannot open \(missing): unable to open the database file"))

        // A bad header: the file is no database at all.
        let badHeader = bench.demo.scratch.path + "/bad-header.sqlite"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: bench.path))
        bytes.replaceSubrange(0..<16, with: Data("Not a database!\0".utf8))
        try bytes.write(to: URL(fileURLWithPath: badHeader))
        let notADatabase = try #require(databaseError { _ = try FormStore(path: badHeader) })
        #expect(bench.classified(notADatabase, at: badHeader) == .storage("cannot read \(badHeader): the file is not an SQLite database"))

        // Truncated: the header promises pages that are gone.
        let truncated = bench.demo.scratch.path + "/truncated.sqlite"
        try Data(try Data(contentsOf: URL(fileURLWithPath: bench.path)).prefix(6_000)).write(to: URL(fileURLWithPath: truncated))
        let corrupt = try #require(databaseError {
            let store = try FormStore(path: truncated)
            _ = try bench.session(store)
        })
        #expect(corrupt.isCorrupt, "\(corrupt)")
        #expect(bench.classified(corrupt, at: truncated).exitCode == .storage)
        #expect(bench.classified(corrupt, at: truncated).message.hasPrefix("cannot read \(truncated): the "))
    }

    /// A read-only way of opening a database, as root can be given one.
    enum ReadOnlyAccess: CaseIterable, Sendable {
        case configuration, readOnlyURI, immutableURI

        func open(_ path: String) throws -> FormStore {
            var configuration = Configuration()
            switch self {
            case .configuration:
                configuration.readOnly = true
                return try FormStore(path: path, configuration: configuration)
            case .readOnlyURI:
                return try FormStore(database: Database(path: "file:\(path)?mode=ro"), applyingMigrations: false)
            case .immutableURI:
                return try FormStore(database: Database(path: "file:\(path)?immutable=1"), applyingMigrations: false)
            }
        }
    }
}

/// The demo database, the signup form, and a fallback folder for drafts
/// (what `$XDG_STATE_HOME/formstore` is to the command).
private struct FaultBench {
    let demo: DemoDatabase
    let fallback: FileDraftStore
    let form: Form
    var path: String { demo.path }

    init() throws {
        demo = try DemoDatabase()
        fallback = FileDraftStore(directory: URL(fileURLWithPath: demo.scratch.path + "/state/formstore"))
        // Taken over as `formstore init` does: FormStore's tables (the drafts) in the file, WAL.
        try FormStore(path: demo.path).initialize()
        form = try FormSpec.decode(Data(contentsOf: URL(fileURLWithPath: DemoDatabase.fixtureForms + "/signup.json")))
    }

    func store(_ configure: (inout Configuration) -> Void = { _ in }) throws -> FormStore {
        var configuration = Configuration()
        configure(&configuration)
        return try FormStore(path: path, configuration: configuration)
    }

    /// Signup 1, drafts on; the interval is long, so an edit after the first waits for `close()`.
    func session(_ store: FormStore) throws -> FormSession {
        try FormSession.open(form, key: RecordKey("id", .int(1)), backend: store, drafts: store,
                             autosave: .init(interval: .seconds(60), fallback: fallback))
    }

    /// Two edits: the first written (or fallen back) at once, the second still
    /// pending when the save comes, so a failed save must hand it back to the draft.
    func type(into session: FormSession, lastName: String = "Typed") throws {
        try session.set("lastName", input: lastName)
        session.close()
        try session.set("age", input: "44")
    }

    /// Saves, expecting storage to fail.
    func failedSave(_ session: FormSession, sourceLocation: SourceLocation = #_sourceLocation) throws -> DatabaseError {
        try #require(databaseError(sourceLocation: sourceLocation) { _ = try session.save() })
    }

    func classified(_ error: any Error, at database: String? = nil) -> CLIError {
        CLIError.classifying(error, databasePath: database ?? path)
    }

    /// Everything typed is in the draft: in its fallback file when the database could not take it.
    func expectDraftKept(by session: FormSession, inFallback: Bool,
                         sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(session.isDirty, sourceLocation: sourceLocation)
        session.close()
        let id = session.draftSnapshot.id
        let draft = try #require(inFallback ? fallback.draft(id: id) : nil, sourceLocation: sourceLocation)
        #expect(draft.values["lastName"] == session.value("lastName"), sourceLocation: sourceLocation)
        #expect(draft.values["age"] == .int(44), "the edit before the failed save is kept", sourceLocation: sourceLocation)
        let fallbackPath = try #require(session.draftFallback, sourceLocation: sourceLocation).location
        #expect(fallbackPath == fallback.path(for: id).path, sourceLocation: sourceLocation)
        let mode = try FileManager.default.attributesOfItem(atPath: fallbackPath)[.posixPermissions] as? Int
        #expect(mode == 0o600, sourceLocation: sourceLocation)
    }

    /// The session saves once storage works, and no draft is left anywhere.
    func expectSaves(_ session: FormSession, firstName: String? = nil,
                     sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard case .saved = try session.save() else {
            Issue.record("not saved: \(session.allErrors)", sourceLocation: sourceLocation)
            return
        }
        let row = try sqlite3(path, ["SELECT firstName, lastName, age FROM signups WHERE id = 1"])
        #expect(row == "\(firstName ?? "Ann")|\(session.value("lastName").textValue ?? "")|44\n", sourceLocation: sourceLocation)
        #expect(try fallback.drafts(form: nil).isEmpty, sourceLocation: sourceLocation)
        #expect(try sqlite3(path, ["SELECT count(*) FROM formstore_drafts"]) == "0\n", sourceLocation: sourceLocation)
    }
}

/// Runs `body` and returns the `DatabaseError` it throws.
private func databaseError(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) -> DatabaseError? {
    do {
        try body()
        Issue.record("expected a DatabaseError, nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as DatabaseError {
        return error
    } catch {
        Issue.record("expected a DatabaseError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// The same faults through the built `formstore`.
@Suite struct CommandFaultTests {
    @Test(arguments: ["mode=ro", "immutable=1"])
    func aReadOnlyDatabaseExits74AndIsUnchanged(_ parameter: String) throws {
        let demo = try DemoDatabase()
        let before = try demo.dump()
        let uri = "file:\(demo.path)?\(parameter)"
        let set = try runBinary(["--db", uri, "--forms", demo.formsDirectory, "set", "signup", "1", "age=50"])
        #expect(set.code == 74, "\(set)")
        #expect(set.errors == "formstore: cannot write \(uri): the database is read-only\n")
        let list = try runBinary(["--db", uri, "--forms", demo.formsDirectory, "list", "signup"])
        #expect(list.code == 0, "reading still works: \(list)")
        #expect(try demo.dump() == before)
    }

    @Test func aBadHeaderExits74() throws {
        let demo = try DemoDatabase()
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: demo.path))
        try handle.write(contentsOf: Data("Not a database!\0".utf8))
        try handle.close()
        let run = try demo.run(["set", "signup", "1", "age=50"])
        #expect(run.code == 74, "\(run)")
        #expect(run.errors == "formstore: cannot read \(demo.path): the file is not an SQLite database\n")
    }

    /// A save that fails where no draft can be kept either (a read-only
    /// database, no writable state folder) prints what was typed, one change
    /// per line, a line break inside a value as `\n`: it printed them all on
    /// one line joined by a literal `\n`, which a value's own line break
    /// looked the same as.
    @Test func aFailedSaveWithNowhereToKeepTheDraftPrintsEachChangeOnItsLine() throws {
        let demo = try DemoDatabase(sql: "CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT NOT NULL, note TEXT);"
                                        + "INSERT INTO book VALUES (1, 'Dune', NULL);")
        let run = try runBinary(["--db", "file:\(demo.path)?mode=ro", "edit", "book", "1", "--plain"],
                                stdin: "New title\n\n\n\ny\n", environment: ["XDG_STATE_HOME": "/proc/nowhere"])
        #expect(run.code == 74, "\(run)")
        #expect(run.errors.hasSuffix("""
            formstore: cannot write file:\(demo.path)?mode=ro: the database is read-only
              no draft could be kept; your changes, to type again:
                title: New title
              to start again, run: formstore --db 'file:\(demo.path)?mode=ro' edit book 1

            """), "\(run)")
        #expect(try demo.query("SELECT title FROM book") == "Dune\n")
    }

    /// `edit` typed through while another process holds the lock: the save
    /// fails with 75, the typed values go to `$XDG_STATE_HOME/formstore` (0600)
    /// and the error says where; the next `edit` offers them and saves.
    @Test func anEditBlockedByALockKeepsItsDraftInAFileAndResumes() throws {
        let demo = try DemoDatabase()
        let state = demo.scratch.path + "/state"
        let environment = ["FORMSTORE_BUSY_TIMEOUT_MS": "100", "XDG_STATE_HOME": state]
        #expect(try demo.run(["init"]).code == 0)
        let holder = try LockHolder(demo.path)
        // Keep the first name, type a last name, keep e-mail and password, type an age, save.
        let blocked = try demo.run(["edit", "signup", "1"], stdin: "\nPark\n\n\n41\ny\n", environment: environment)
        try holder.release()
        #expect(blocked.code == 75, "\(blocked)")
        let lines = blocked.errors.split(separator: "\n").map(String.init)
        // The prompts (not echoed from a file) share the line before it.
        #expect(lines.dropLast().last?.hasSuffix("formstore: \(demo.path): the database is locked by another process (try again)") == true)
        let files = try FileManager.default.contentsOfDirectory(atPath: state + "/formstore")
        let file = try #require(files.first, "no draft file in \(state)/formstore")
        let path = state + "/formstore/" + file
        #expect(lines.last?.hasPrefix("  your changes are kept in \(path); to resume, run: formstore --db ") == true,
                "\(blocked)")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        #expect(!blocked.errors.contains("SQLITE_BUSY"))
        let draft = try Draft(encoded: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(draft.values == ["lastName": .text("Park"), "age": .int(41)])

        // Restore the offered draft, keep every field as restored, save.
        let resumed = try demo.run(["edit", "signup", "1"], stdin: "y\n\n\n\n\n\ny\n", environment: environment)
        #expect(resumed.code == 0, "\(resumed)")
        #expect(try demo.query("SELECT lastName, age FROM signups WHERE id = 1") == "Park|41\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: state + "/formstore").isEmpty)
    }
}
