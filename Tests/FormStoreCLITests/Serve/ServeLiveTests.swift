import FormStorage
@testable import FormStoreCLI
import FormStoreTestSupport
import Foundation
import Synchronization
import Testing

/// The web face's part in live records: an event stream sleeps until a
/// commit (nothing read while nobody writes), and saves made through the
/// web are named in the record's history.
@Suite(.serialized) struct ServeLiveTests {
    static let json = ["Content-Type": "application/json"]

    /// An application's database that `formstore init` was run on (history lives in it).
    func database() throws -> DemoDatabase {
        let db = try DemoDatabase(sql: """
            CREATE TABLE plans (id INTEGER PRIMARY KEY, name TEXT NOT NULL, seats INTEGER);
            INSERT INTO plans VALUES (1, 'free', 1);
            """)
        #expect(try db.run(["init"]).code == 0)
        return db
    }

    func history(_ db: DemoDatabase) throws -> [[String: Any]] {
        let listed = try db.run(["history", "plans", "1", "--format", "json"])
        #expect(listed.code == 0, "\(listed)")
        return try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
    }

    @Test func aSaveWithoutLoginsIsLocalThroughTheWeb() throws {
        let db = try database()
        let server = try ServeRun(db)
        let saved = try HTTPClient.request("PATCH", port: server.port, "/api/forms/plans/records/1", headers: Self.json,
                                           body: Data(#"{"seats": 3}"#.utf8))
        #expect(saved.status == 200, "\(saved)")
        let rows = try history(db)
        #expect(rows.map { $0["field"] as? String } == ["seats"])
        #expect(rows.first?["actor"] as? String == "local" && rows.first?["via"] as? String == "web", "\(rows)")
    }

    @Test func aSaveWithTheTokenIsNamedToken() throws {
        let db = try database()
        let server = try ServeRun(db, ["--token"])
        let token = try #require(server.token)
        var headers = Self.json
        headers["Authorization"] = "Bearer " + token
        let created = try HTTPClient.request("POST", port: server.port, "/api/forms/plans/records", headers: headers,
                                             body: Data(#"{"name": "team", "seats": 5}"#.utf8))
        #expect(created.status == 201, "\(created)")
        #expect(try HTTPClient.request("PATCH", port: server.port, "/api/forms/plans/records/1", headers: headers,
                                       body: Data(#"{"name": "pro"}"#.utf8)).status == 200)
        let rows = try history(db)
        #expect(rows.map { $0["field"] as? String } == ["name"])
        #expect(rows.allSatisfy { $0["actor"] as? String == "token" && $0["via"] as? String == "web" }, "\(rows)")
    }

    /// The server's app in this process, over `db`, and its workspace.
    static func app(_ db: DemoDatabase) -> (StorageWorkspace, WebApp) {
        let workspace = StorageWorkspace(globals: GlobalOptions(databasePath: db.path, formsDirectory: db.formsDirectory),
                                         access: .writeWithDrafts)
        return (workspace, WebApp(workspace: workspace, visitors: WebVisitors(authentication: .none), readOnly: false))
    }

    /// A page that closed its stream while hidden opens it again naming the
    /// state it drew (`?etag=`): a save made meanwhile is told at once, where
    /// the stream began at the record as it found it and told nothing.
    @Test func aStreamOpenedAgainTellsOfASaveMadeWhileItWasClosed() throws {
        let db = try database()
        let (_, app) = Self.app(db)
        defer { app.stop() }
        let page = app.handle(HTTPRequest(method: "GET", path: "/forms/plans/1", query: [], headers: [:], body: Data()))
        let html = String(decoding: page.body, as: UTF8.self)
        let tag = try #require(html.firstRange(of: #/data-etag="([0-9a-f]+)"/#).map { String(html[$0].dropFirst(11).dropLast()) })
        func firstEvent(since: String) throws -> String {
            let response = app.handle(HTTPRequest(method: "GET", path: "/api/forms/plans/records/1/events",
                                                  query: [("etag", since)], headers: [:], body: Data()))
            let stream = try #require(response.stream)
            _ = stream()  // retry:
            return String(decoding: stream() ?? Data(), as: UTF8.self)
        }
        _ = try sqlite3(db.path, input: "UPDATE plans SET seats = 3 WHERE id = 1;")
        #expect(try firstEvent(since: tag).hasPrefix("event: saved"))
    }

    /// In-process, to count the statements the server runs: while nobody
    /// commits, an open stream reads no row; another process's save wakes it.
    @Test func anIdleStreamReadsNothingUntilAnotherProcessSaves() throws {
        let db = try database()
        let (workspace, app) = Self.app(db)
        defer { app.stop() }
        let response = app.handle(HTTPRequest(method: "GET", path: "/api/forms/plans/records/1/events", query: [], headers: [:], body: Data()))
        #expect(response.status == 200)
        let stream = try #require(response.stream)
        #expect(String(decoding: stream() ?? Data(), as: UTF8.self).hasPrefix("retry:"))

        let reads = Atomic<Int>(0)
        let sqlite = try #require(try workspace.store() as? FormStore)
        sqlite.database.traceStatements { sql in
            if sql.contains("plans") { reads.add(1, ordering: .relaxed) }
        }
        let event = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let next = stream().map { String(decoding: $0, as: UTF8.self) }
            event.withLock { $0 = next }
            done.signal()
        }.start()
        Thread.sleep(forTimeInterval: 1.5)
        #expect(reads.load(ordering: .relaxed) == 0, "the idle stream read the record")
        #expect(event.withLock { $0 } == nil)

        _ = try sqlite3(db.path, input: "UPDATE plans SET seats = 2 WHERE id = 1;")
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(event.withLock { $0 }?.contains("event: saved") == true)
        #expect(reads.load(ordering: .relaxed) > 0)
        sqlite.database.traceStatements(nil)
    }
}
