import FormStoreTestSupport
import Foundation
import Testing

/// What `list` and `show` print for a secure field (`••••`) read back by
/// `import`, `set --json` and `--children` is no value: the password is left
/// as it is, never replaced by the mask. Through the built binary.
@Suite struct SecureMaskTests {
    static let schema = """
        CREATE TABLE member (id INTEGER PRIMARY KEY, login TEXT, password TEXT, api_secret TEXT);
        CREATE TABLE cred (id INTEGER PRIMARY KEY, member_id INTEGER REFERENCES member(id), password TEXT);
        INSERT INTO member VALUES (1, 'ann', 'hunter22', 'sk_live_XYZ');
        INSERT INTO cred VALUES (5, 1, 'child-pw');
        """

    @Test func printedRecordsReadBackLeaveSecretsAsTheyAre() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let before = try demo.dump()
        for format in ["json", "ndjson", "csv"] {
            let listed = try demo.run(["list", "member", "--format", format])
            #expect(listed.output.contains("••••"), "\(listed)")
            let imported = try demo.run(["import", "member", "--format", format], stdin: listed.output)
            #expect(imported.code == 0, "\(imported)")
            #expect(imported.errors.contains("1 unchanged"), "\(imported)")
        }
        let shown = try demo.run(["show", "member", "1", "--format", "json", "--children"])
        #expect(shown.output.contains("\"password\": \"••••\""), "\(shown)")
        let set = try demo.run(["set", "member", "1", "--json", "--children"], stdin: shown.output)
        #expect(set.code == 0, "\(set)")
        #expect(set.errors.contains("No changes."), "\(set)")
        #expect(try demo.dump() == before)
    }

    /// `new --json` of what `show` printed, and `FIELD:=` of the mask, leave the password alone.
    @Test func newAndJSONAssignmentsTakeTheMaskAsNoValue() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let made = try demo.run(["new", "member", "--json"], stdin: #"{"id": 3, "login": "q", "password": "••••"}"#)
        #expect(made.code == 0, "\(made)")
        #expect(try demo.query("SELECT quote(password) FROM member WHERE id = 3") == "NULL\n")
        #expect(try demo.run(["set", "member", "1", #"password:="••••""#]).code == 0)
        #expect(try demo.query("SELECT password FROM member WHERE id = 1") == "hunter22\n")
    }

    @Test func aNewRecordGivenTheMaskHasNoPassword() throws {
        let demo = try DemoDatabase(sql: Self.schema)
        let imported = try demo.run(["import", "member", "--children"], stdin: """
            {"id": 2, "login": "bo", "password": "••••", "cred": [{"id": 6, "password": "••••"}]}
            """)
        #expect(imported.code == 0, "\(imported)")
        #expect(try demo.query("SELECT quote(password) FROM member WHERE id = 2") == "NULL\n")
        #expect(try demo.query("SELECT quote(password) FROM cred WHERE id = 6") == "NULL\n")
    }
}
