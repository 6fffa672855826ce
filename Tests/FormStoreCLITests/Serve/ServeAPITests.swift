import FormStoreTestSupport
import Foundation
import Testing

/// The JSON API: the library's JSON shapes, ETags and If-Match, 201 with
/// Location, and a record's saves as server-sent events.
@Suite(.serialized) struct ServeAPITests {
    static let json = ["Content-Type": "application/json"]

    @Test func aFormIsItsSpecAndJSONSchema() throws {
        let server = try ServeRun(try DemoDatabase())
        let reply = try HTTPClient.request("GET", port: server.port, "/api/forms/signup")
        #expect(reply.status == 200 && reply.headers["content-type"] == "application/json")
        let object = try #require(try reply.json() as? [String: Any])
        #expect((object["spec"] as? [String: Any])?["name"] as? String == "signup")
        #expect((object["schema"] as? [String: Any])?["$schema"] != nil)
        #expect(try HTTPClient.request("GET", port: server.port, "/api/forms/nope").status == 404)
    }

    @Test func recordsListWithLimitOffsetWhereAndSort() throws {
        let server = try ServeRun(try DemoDatabase())
        func ids(_ query: String) throws -> [Int] {
            let reply = try HTTPClient.request("GET", port: server.port, "/api/forms/signup/records" + query)
            #expect(reply.status == 200, "\(reply)")
            return (try reply.json() as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
        }
        #expect(try ids("") == [1, 2])
        #expect(try ids("?limit=1&offset=1") == [2])
        #expect(try ids("?sort=-firstName") == [2, 1])
        #expect(try ids("?where=age%3C30") == [2])
        let reply = try HTTPClient.request("GET", port: server.port, "/api/forms/signup/records")
        #expect(!reply.text.contains("hunter22") && !reply.text.contains("password"), "secure values are never sent")
        #expect(try HTTPClient.request("GET", port: server.port, "/api/forms/signup/records?where=nope%3D1").status == 400)
    }

    /// A record read is sent back as it is: its read-only key, a DATE column
    /// kept as Unix time with a time of day, and a date the field cannot read
    /// are no change.
    @Test func aRecordReadAndSentBackIsUnchanged() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE t (id INTEGER PRIMARY KEY, due DATE, at DATETIME, tm TIME, odd DATE);
            INSERT INTO t VALUES (1, 1704448800, '2024-01-05 10:00:00.123456', '13:45:59.5', '04/07/2016');

            """)
        let before = try db.dump()
        let server = try ServeRun(db)
        let read = try HTTPClient.request("GET", port: server.port, "/api/forms/t/records/1")
        // A date the field cannot read (`odd`) is sent back as it is, unchecked: no change.
        #expect(read.text == #"{"at":"2024-01-05T10:00:00.123456Z","due":"2024-01-05","id":1,"odd":"04/07/2016","tm":"13:45:59.500"}"#,
                "\(read)")
        let tag = try #require(read.headers["etag"])
        let back = try HTTPClient.request("PATCH", port: server.port, "/api/forms/t/records/1",
                                          headers: Self.json.merging(["If-Match": tag]) { $1 }, body: Data(read.text.utf8))
        #expect(back.status == 200, "\(back)")
        #expect(back.text == #"{"outcome":"unchanged"}"#, "\(back)")
        #expect(try db.dump() == before)
    }

    /// A float that is no number reads by name (it was a 500 for the record
    /// and for every list holding it), and sent back it is no change.
    @Test func infinityReadsByNameAndSentBackIsUnchanged() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE reals (id INTEGER PRIMARY KEY, r REAL, n NUMERIC);
            INSERT INTO reals VALUES (1, 9e999, -9e999);
            """)
        let before = try db.dump()
        let server = try ServeRun(db)
        let read = try HTTPClient.request("GET", port: server.port, "/api/forms/reals/records/1")
        #expect(read.status == 200 && read.text == #"{"id":1,"n":"-Infinity","r":"Infinity"}"#, "\(read)")
        #expect(try HTTPClient.request("GET", port: server.port, "/api/forms/reals/records").status == 200)
        let back = try HTTPClient.request("PATCH", port: server.port, "/api/forms/reals/records/1",
                                          headers: Self.json, body: Data(read.text.utf8))
        #expect(back.status == 200 && back.text == #"{"outcome":"unchanged"}"#, "\(back)")
        #expect(try db.dump() == before)
    }

    /// The record at `path` read (GET) and sent back as it came (PATCH): both answers.
    static func sentBack(_ server: ServeRun, _ path: String) throws -> (read: HTTPReply, back: HTTPReply) {
        let read = try HTTPClient.request("GET", port: server.port, path)
        return (read, try HTTPClient.request("PATCH", port: server.port, path, headers: json, body: Data(read.text.utf8)))
    }

    /// A column of no type's whole REAL, which JSON writes as `1` (`-0.0` as
    /// `-0`), read and sent back is no change: set from it, a REAL 1.0 became
    /// the INTEGER 1, and -0.0 the INTEGER 0.
    @Test func anUntypedWholeRealSentBackIsUnchanged() throws {
        let db = try DemoDatabase(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, a); INSERT INTO t VALUES (4, -0.0), (6, 1.0), (7, 2);")
        let before = try db.dump()
        let server = try ServeRun(db)
        for key in [4, 6, 7] {
            let (read, back) = try Self.sentBack(server, "/api/forms/t/records/\(key)")
            #expect(back.status == 200 && back.text == #"{"outcome":"unchanged"}"#, "\(key): \(read.text) \(back)")
        }
        #expect(try db.dump() == before)
    }

    /// A spec giving the key no field: the record read names its key, and
    /// sent back that is no change (it was "simple has no field id"); another
    /// key is still refused.
    @Test func aRecordOfASpecWithoutItsKeyFieldSentBackIsUnchanged() throws {
        let db = try DemoDatabase(sql: "CREATE TABLE acct (id INTEGER PRIMARY KEY, name TEXT, age INTEGER); INSERT INTO acct VALUES (1, 'ann', 30);")
        try db.useSpecs(["simple.json": """
            {"formstore": 1, "name": "simple", "table": "acct", "editsOtherTable": true,
             "sections": [{"fields": [{"key": "name"}, {"key": "age", "kind": "integer"}]}]}
            """])
        let server = try ServeRun(db)
        let (read, back) = try Self.sentBack(server, "/api/forms/simple/records/1")
        #expect(read.text == #"{"age":30,"id":1,"name":"ann"}"#, "\(read)")
        #expect(back.status == 200 && back.text == #"{"outcome":"unchanged"}"#, "\(back)")
        let other = try HTTPClient.request("PATCH", port: server.port, "/api/forms/simple/records/1", headers: Self.json,
                                           body: Data(#"{"id": 2}"#.utf8))
        #expect(other.status == 422 && other.text.contains("unknownField"), "\(other)")
    }

    /// A refusal by the schema (a CHECK, a value referring to no row) is an
    /// outcome in the shape of the others, for PATCH and POST alike.
    @Test func theSchemasRefusalIsAnInvalidOutcome() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE p (id INTEGER PRIMARY KEY);
            CREATE TABLE c (id INTEGER PRIMARY KEY, label TEXT CHECK (length(label) < 10), p INTEGER REFERENCES p(id));
            INSERT INTO c VALUES (1, 'ok', NULL);

            """)
        let server = try ServeRun(db)
        let check = #"{"errors":[{"code":"refused","field":"label","message":"CHECK constraint failed: length(label) < 10"}],"outcome":"invalid"}"#
        let patched = try HTTPClient.request("PATCH", port: server.port, "/api/forms/c/records/1", headers: Self.json,
                                             body: Data(#"{"label": "much too long"}"#.utf8))
        #expect(patched.status == 422 && patched.text == check, "\(patched)")
        let posted = try HTTPClient.request("POST", port: server.port, "/api/forms/c/records", headers: Self.json,
                                            body: Data(#"{"label": "much too long"}"#.utf8))
        #expect(posted.status == 422 && posted.text == check, "\(posted)")
        let dangling = try HTTPClient.request("PATCH", port: server.port, "/api/forms/c/records/1", headers: Self.json,
                                              body: Data(#"{"p": 77}"#.utf8))
        #expect(dangling.status == 422, "\(dangling)")
        #expect(dangling.text == #"{"errors":[{"code":"reference","field":"p","message":"no row of 'p' has id = 77"}],"outcome":"invalid"}"#)
        #expect(try db.query("SELECT label, quote(p) FROM c") == "ok|NULL\n")
    }

    /// A method a resource does not take is 405, naming those it does.
    @Test func aMethodNotTakenIsRefusedNamingThoseThatAre() throws {
        let server = try ServeRun(try DemoDatabase())
        for (method, path, allowed) in [("POST", "/api/forms/signup/records/1", "GET, PATCH, DELETE"),
                                        ("PUT", "/api/forms/signup/records/1", "GET, PATCH, DELETE"),
                                        ("DELETE", "/api/forms/signup/records", "GET, POST"),
                                        ("PATCH", "/api/forms/signup", "GET")] {
            let reply = try HTTPClient.request(method, port: server.port, path, headers: Self.json, body: Data("{}".utf8))
            #expect(reply.status == 405, "\(method) \(path): \(reply)")
            #expect(reply.headers["allow"] == allowed, "\(method) \(path)")
            #expect(reply.text == #"{"error":"this resource takes \#(allowed)"}"#)
        }
    }

    @Test func patchWithIfMatchSavesAndAStaleTagIsRefused() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let read = try HTTPClient.request("GET", port: server.port, "/api/forms/signup/records/1")
        #expect(read.status == 200)
        let tag = try #require(read.headers["etag"])
        #expect((try read.json() as? [String: Any])?["firstName"] as? String == "Ann")
        let patched = try HTTPClient.request("PATCH", port: server.port, "/api/forms/signup/records/1",
                                             headers: Self.json.merging(["If-Match": tag]) { $1 }, body: Data(#"{"age": 35}"#.utf8))
        #expect(patched.status == 200, "\(patched)")
        #expect(patched.text == #"{"changed":["age"],"key":{"id":1},"outcome":"saved"}"#)
        let newTag = try #require(patched.headers["etag"])
        #expect(newTag != tag)
        let stale = try HTTPClient.request("PATCH", port: server.port, "/api/forms/signup/records/1",
                                           headers: Self.json.merging(["If-Match": tag]) { $1 }, body: Data(#"{"age": 36}"#.utf8))
        #expect(stale.status == 412)
        #expect(try db.query("SELECT age FROM signups WHERE id = 1") == "35\n")

        let unknown = try HTTPClient.request("PATCH", port: server.port, "/api/forms/signup/records/1",
                                             headers: Self.json, body: Data(#"{"agee": 1}"#.utf8))
        #expect(unknown.status == 422)
        #expect(unknown.text.contains(#""code":"unknownField""#), "\(unknown)")
        let invalid = try HTTPClient.request("PATCH", port: server.port, "/api/forms/signup/records/1",
                                             headers: Self.json, body: Data(#"{"age": 200}"#.utf8))
        #expect(invalid.status == 422)
        #expect(invalid.text.contains(#""outcome":"invalid""#), "\(invalid)")
        let notJSON = try HTTPClient.request("PATCH", port: server.port, "/api/forms/signup/records/1",
                                             headers: ["Content-Type": "text/plain"], body: Data(#"{"age": 1}"#.utf8))
        #expect(notJSON.status == 415)
        // Only JSON is JSON: a type that merely begins so is not; parameters are read past.
        #expect(try HTTPClient.request("PATCH", port: server.port, "/api/forms/signup/records/1",
                                       headers: ["Content-Type": "application/jsonx"], body: Data(#"{"age": 1}"#.utf8)).status == 415)
        #expect(try HTTPClient.request("PATCH", port: server.port, "/api/forms/signup/records/1",
                                       headers: ["Content-Type": "Application/JSON; charset=utf-8"], body: Data(#"{"age": 33}"#.utf8)).status == 200)
        #expect(try HTTPClient.request("PATCH", port: server.port, "/api/forms/signup/records/9", headers: Self.json,
                                       body: Data(#"{"age": 1}"#.utf8)).status == 404)
    }

    /// A conflict over a password names the field and shows none of its
    /// values; the tag of a record tells nothing of its secure values either
    /// (keyed by the server's run, so another run gives another).
    @Test func secureValuesLeaveNoTraceInConflictsOrTags() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let path = "/api/forms/signup/records/1"
        let tag = try #require(try HTTPClient.request("GET", port: server.port, path).headers["etag"])
        let based = Self.json.merging(["FormStore-Base": tag]) { $1 }
        let theirs = try HTTPClient.request("PATCH", port: server.port, path, headers: based,
                                            body: Data(#"{"password": "their-new-secret"}"#.utf8))
        #expect(theirs.status == 200, "\(theirs)")
        let mine = try HTTPClient.request("PATCH", port: server.port, path, headers: based,
                                          body: Data(#"{"password": "my-new-secret"}"#.utf8))
        #expect(mine.status == 409, "\(mine)")
        #expect(mine.text.contains(#""field":"password""#), "\(mine)")
        for secret in ["hunter22", "their-new-secret", "my-new-secret"] { #expect(!mine.text.contains(secret), "\(mine)") }
        // The mask a conflict shows, sent back as "theirs", is no value: the password stands.
        let back = try HTTPClient.request("PATCH", port: server.port, path, headers: Self.json,
                                          body: Data(#"{"password": "••••"}"#.utf8))
        #expect(back.status == 200 && back.text.contains(#""outcome":"unchanged""#), "\(back)")
        #expect(try db.query("SELECT password FROM signups WHERE id = 1") == "their-new-secret\n")
        let other = try ServeRun(db)
        #expect(try HTTPClient.request("GET", port: other.port, path).headers["etag"]
                != (try HTTPClient.request("GET", port: server.port, path).headers["etag"]))
    }

    /// A PATCH judged against an older state (`FormStore-Base`) whose change
    /// the record holds already (another client set the same value first)
    /// is `unchanged`: it answered `saved`, naming the field.
    @Test func aChangeTheRecordHoldsAlreadyIsUnchanged() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let path = "/api/forms/signup/records/1"
        let tag = try #require(try HTTPClient.request("GET", port: server.port, path).headers["etag"])
        let based = Self.json.merging(["FormStore-Base": tag]) { $1 }
        let first = try HTTPClient.request("PATCH", port: server.port, path, headers: based, body: Data(#"{"age": 41}"#.utf8))
        #expect(first.status == 200 && first.text.contains(#""outcome":"saved""#), "\(first)")
        let second = try HTTPClient.request("PATCH", port: server.port, path, headers: based, body: Data(#"{"age": 41}"#.utf8))
        #expect(second.status == 200 && second.text.contains(#""outcome":"unchanged""#), "\(second)")
        #expect(try db.query("SELECT age FROM signups WHERE id = 1") == "41\n")
    }

    /// HEAD is GET without a body; a method no resource takes is 405 whatever
    /// its content type; a byte-order mark before a body is read past; a
    /// DELETE naming a state the record left is refused as a PATCH is.
    @Test func methodsAndHeadersAsHTTPHasThem() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let path = "/api/forms/signup/records/1"
        let head = try HTTPClient.request("HEAD", port: server.port, path)
        #expect(head.status == 200 && head.text.isEmpty && head.headers["etag"] != nil, "\(head)")
        #expect(try HTTPClient.request("PATCH", port: server.port, "/api/forms/signup").status == 405)
        #expect(try HTTPClient.request("POST", port: server.port, path).status == 405)
        let bom = try HTTPClient.request("PATCH", port: server.port, path, headers: Self.json,
                                         body: Data([0xEF, 0xBB, 0xBF] + Array(#"{"age": 40}"#.utf8)))
        #expect(bom.status == 200, "\(bom)")
        let stale = try HTTPClient.request("DELETE", port: server.port, path, headers: ["FormStore-Base": "\"stale\""])
        #expect(stale.status == 412, "\(stale)")
        #expect(try db.query("SELECT count(*) FROM signups WHERE id = 1") == "1\n")
    }

    @Test func postCreatesAndDeleteRemoves() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let created = try HTTPClient.request("POST", port: server.port, "/api/forms/signup/records", headers: Self.json,
                                             body: Data(#"{"firstName": "Cy", "lastName": "Dee", "email": "cy@example.com", "password": "pw-long-enough"}"#.utf8))
        #expect(created.status == 201, "\(created)")
        #expect(created.headers["location"] == "/api/forms/signup/records/3")
        #expect(try HTTPClient.request("GET", port: server.port, "/api/forms/signup/records/3").status == 200)
        let missing = try HTTPClient.request("POST", port: server.port, "/api/forms/signup/records", headers: Self.json,
                                             body: Data(#"{"firstName": "Di"}"#.utf8))
        #expect(missing.status == 422 && missing.text.contains(#""outcome":"invalid""#), "\(missing)")
        #expect(try HTTPClient.request("DELETE", port: server.port, "/api/forms/signup/records/3").status == 204)
        #expect(try HTTPClient.request("DELETE", port: server.port, "/api/forms/signup/records/3").status == 404)
        #expect(try db.query("SELECT count(*) FROM signups") == "2\n")
    }

    /// A record others refer to is refused with who refers to it, as
    /// `delete` and the page say: it was SQLite's bare words.
    @Test func aDeleteOthersReferToIsRefusedNamingThem() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE p (id INTEGER PRIMARY KEY);
            CREATE TABLE c (id INTEGER PRIMARY KEY, p INTEGER REFERENCES p(id) ON DELETE RESTRICT);
            INSERT INTO p VALUES (1); INSERT INTO c VALUES (1, 1);
            """)
        let before = try db.dump()
        let server = try ServeRun(db)
        let refused = try HTTPClient.request("DELETE", port: server.port, "/api/forms/p/records/1")
        #expect(refused.status == 422, "\(refused)")
        #expect(refused.text.contains("other records refer to it through c.p"), "\(refused)")
        #expect(try db.dump() == before)
    }

    @Test func anotherProcesssSaveIsAnEvent() throws {
        let db = try DemoDatabase()
        let server = try ServeRun(db)
        let stream = try HTTPClient.awaitEvent("saved", port: server.port, "/api/forms/signup/records/2/events") {
            try sqlite3(db.path, input: "UPDATE signups SET age = 28 WHERE id = 2;")
        }
        #expect(stream.contains("event: saved"), "\(stream)")
    }
}
