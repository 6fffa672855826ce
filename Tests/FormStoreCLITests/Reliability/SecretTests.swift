import Foundation
import Testing

/// Secure fields in the bytes FormStore writes. Covered elsewhere: drafts in
/// memory (FormCoreTests DraftTests.secureFieldsNeverReachADraft), list and
/// export masking (CommandTests.secureValuesAreShownOnlyWhenAsked), errors
/// (WriteCommandTests.secureValuesNeverAppearInErrors, conflicts in
/// ErrorClassificationTests), SQLite errors (DatabaseErrorTests
/// .boundValuesNeverAppearInTheDescription), files created 0600
/// (ConnectionTests, SchemaCommandTests, DraftTests, SessionFaultTests).
@Suite struct SecretTests {
    static let password = "TopSecret-42"

    /// An edit that ends before saving keeps a draft: in the database, or in
    /// its fallback file when the database is locked. The typed password is in
    /// neither file, nor in the database's WAL, nor in anything printed.
    @Test func aTypedPasswordReachesNoDraftByte() throws {
        let demo = try DemoDatabase()
        let state = demo.scratch.path + "/state"
        // Taken over by `init` (WAL, drafts in the database), so a reader gets past another's lock.
        #expect(try demo.run(["init"]).code == 0)
        // A username, the password twice, then the end of input (the draft is kept).
        let typed = "newname\n\(Self.password)\n\(Self.password)\n"
        let kept = try demo.run(["edit", "registration", "1"], stdin: typed, environment: ["XDG_STATE_HOME": state])
        #expect(kept.code == 1, "\(kept)")
        #expect(kept.errors.contains("Secret fields are never kept in drafts"))
        #expect(try demo.query("SELECT count(*) FROM formstore_drafts WHERE payload LIKE '%newname%'") == "1\n")
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: demo.path + suffix) {
            #expect(!(try Self.holdsPassword(demo.path + suffix)), "\(suffix)")
        }

        let holder = try LockHolder(demo.path)
        let fallen = try demo.run(["edit", "registration", "2"], stdin: typed,
                                  environment: ["XDG_STATE_HOME": state, "FORMSTORE_BUSY_TIMEOUT_MS": "100"])
        try holder.release()
        #expect(fallen.code == 1, "\(fallen)")
        #expect(fallen.errors.contains("your changes are kept in \(state)/formstore/draft-"))
        // The reason is worded like the command's errors, without SQLite's codes.
        #expect(fallen.errors.contains("could not take the draft (\(demo.path): the database is locked by another process (try again))"))
        #expect(!fallen.errors.contains("SQLITE_BUSY"))
        let files = try FileManager.default.contentsOfDirectory(atPath: state + "/formstore")
        #expect(files.count == 1)
        for file in files {
            let path = state + "/formstore/" + file
            #expect(try String(contentsOfFile: path, encoding: .utf8).contains("newname"))
            #expect(!(try Self.holdsPassword(path)))
        }
        for run in [kept, fallen] {
            #expect(!run.errors.contains(Self.password) && !run.output.contains(Self.password))
        }
    }

    /// The same for a database nobody ran `init` on: its draft is in the sidecar.
    @Test func aTypedPasswordReachesNoSidecarByte() throws {
        let demo = try DemoDatabase()
        let typed = "newname\n\(Self.password)\n\(Self.password)\n"
        let kept = try demo.run(["edit", "registration", "1"], stdin: typed)
        #expect(kept.code == 1, "\(kept)")
        #expect(try demo.querySidecar("SELECT count(*) FROM formstore_drafts WHERE payload LIKE '%newname%'") == "1\n")
        for path in [demo.path, demo.sidecar.path] {
            for suffix in ["", "-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
                #expect(!(try Self.holdsPassword(path + suffix)), "\(path + suffix)")
            }
        }
        #expect(!kept.errors.contains(Self.password) && !kept.output.contains(Self.password))
    }

    static func holdsPassword(_ path: String) throws -> Bool {
        try Data(contentsOf: URL(fileURLWithPath: path)).range(of: Data(password.utf8)) != nil
    }
}
