import FormStoreTestSupport
import Foundation
import FormStorage
import Testing

@Suite struct ConnectionTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    private func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as! NSNumber).intValue & 0o777
    }

    @Test func createsTheFileWithMode0600AndPrivateWALFiles() throws {
        let path = directory.path("new.sqlite")
        let conn = try Connection(path: path)
        try conn.execute("CREATE TABLE t(a)")
        try conn.execute("INSERT INTO t VALUES (1)")
        #expect(try mode(path) == 0o600)
        #expect(try mode(path + "-wal") == 0o600)
        #expect(try mode(path + "-shm") == 0o600)
    }

    /// SQLite takes process-wide settings only before its first connection:
    /// afterwards the call is refused and the connection works on.
    @Test func processSettingsCannotBeChangedOnceSQLiteIsInUse() throws {
        let conn = try Connection(path: directory.path("db.sqlite"))
        #expect(!SQLiteLibrary.turnOffMemoryStatistics())
        #expect(!SQLiteLibrary.allocatePagesOnDemand())
        #expect(try conn.fetchValue(Int.self, "SELECT 1") == 1)
    }

    @Test func setsWALForeignKeysAndSynchronousFull() throws {
        let conn = try Connection(path: directory.path("db.sqlite"))
        #expect(try conn.fetchValue(String.self, "PRAGMA journal_mode") == "wal")
        #expect(try conn.fetchValue(Int.self, "PRAGMA foreign_keys") == 1)
        #expect(try conn.fetchValue(Int.self, "PRAGMA synchronous") == 2)
    }

    @Test func synchronousNormalAndBusyTimeoutAreConfigurable() throws {
        var config = Configuration()
        config.synchronous = .normal
        config.busyTimeout = .milliseconds(1500)
        let conn = try Connection(path: directory.path("db.sqlite"), configuration: config)
        #expect(try conn.fetchValue(Int.self, "PRAGMA synchronous") == 1)
        #expect(conn.configuration.busyTimeout == .milliseconds(1500))
        #expect(Configuration().busyTimeout == .seconds(5))
    }

    @Test func defaultBusyTimeoutIsFiveSeconds() throws {
        let conn = try Connection(path: directory.path("db.sqlite"))
        // The wait is FormStore's own busy handler (cancellable), so the pragma reads 0.
        #expect(conn.configuration.busyTimeout == .seconds(5))
    }

    @Test func cachedStatementsAreReusedBySQLText() throws {
        let conn = try Connection(path: ":memory:")
        let first = try conn.cachedStatement("SELECT ?")
        let second = try conn.cachedStatement("SELECT ?")
        let other = try conn.cachedStatement("SELECT ? + 1")
        #expect(first === second)
        #expect(first !== other)
        #expect(try first.fetchOne([41])?[0] == .integer(41))
        #expect(try second.fetchOne([7])?[0] == .integer(7))
        // The statement handed out last is found again after another one, and
        // a cleared cache hands out a new one, never a finalized one.
        #expect(try conn.cachedStatement("SELECT ?") === first)
        conn.clearStatementCache()
        let afterClearing = try conn.cachedStatement("SELECT ?")
        #expect(afterClearing !== first)
        #expect(try afterClearing.fetchOne([3])?[0] == .integer(3))
    }

    @Test func bindsByIndexAndByName() throws {
        let conn = try Connection(path: ":memory:")
        try conn.execute("CREATE TABLE t(a, b)")
        let insert = try conn.cachedStatement("INSERT INTO t VALUES (?, ?)")
        try insert.bind(.integer(1), at: 1)
        try insert.bind("one", at: 2)
        #expect(try insert.step() == false)
        try conn.execute("INSERT INTO t VALUES (:a, @b)", ["a": 2, "b": "two"])
        let named = try conn.makeStatement("INSERT INTO t VALUES ($a, :b)")
        try named.bind(.integer(3), named: "a")
        try named.bind(.text("three"), named: ":b")
        #expect(try named.step() == false)
        let rows = try conn.fetchAll("SELECT a, b FROM t ORDER BY a")
        #expect(try rows.map { try $0.value("b", as: String.self) } == ["one", "two", "three"])
    }

    @Test func typedColumnReads() throws {
        let conn = try Connection(path: ":memory:")
        let statement = try conn.makeStatement("SELECT 42, 1.5, 'text', x'0102', NULL")
        #expect(try statement.step())
        #expect(statement.int64(at: 0) == 42)
        #expect(statement.double(at: 1) == 1.5)
        #expect(statement.text(at: 2) == "text")
        #expect(statement.blob(at: 3) == Data([1, 2]))
        #expect(statement.isNull(at: 4))
        #expect(try statement.value(at: 0, as: Int.self) == 42)
        #expect(try statement.value(at: 4, as: String?.self) == nil)
        #expect(statement.columnCount == 5)
    }

    @Test func argumentCountMismatchIsAnError() throws {
        let conn = try Connection(path: ":memory:")
        let tooFew = databaseError { try conn.execute("SELECT ?, ?", [1]) }
        #expect(tooFew?.resultCode == .SQLITE_RANGE)
        let tooMany = databaseError { try conn.execute("SELECT ?", [1, 2]) }
        #expect(tooMany?.resultCode == .SQLITE_RANGE)
        let unknownName = databaseError { try conn.execute("SELECT :a", ["a": 1, "b": 2]) }
        #expect(unknownName?.resultCode == .SQLITE_RANGE)
    }

    @Test func executeScriptRunsSeveralCommandsAndComments() throws {
        let conn = try Connection(path: ":memory:")
        try conn.executeScript("""
            -- a comment
            CREATE TABLE t(a); /* another */
            INSERT INTO t VALUES ('x;y');
            INSERT INTO t VALUES (2);
            -- trailing comment
            """)
        #expect(try conn.fetchValue(Int.self, "SELECT count(*) FROM t") == 2)
        #expect(try conn.fetchValue(String.self, "SELECT a FROM t WHERE rowid = 1") == "x;y")
    }

    @Test func oneStatementAtATimeOutsideScripts() throws {
        let conn = try Connection(path: ":memory:")
        let error = databaseError { try conn.execute("CREATE TABLE a(x); CREATE TABLE b(x)") }
        #expect(error?.resultCode == .SQLITE_MISUSE)
    }

    @Test func reportsLastRowIDAndChanges() throws {
        let conn = try Connection(path: ":memory:")
        try conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, a)")
        try conn.execute("INSERT INTO t(a) VALUES (1), (2)")
        #expect(conn.lastInsertedRowID == 2)
        try conn.execute("UPDATE t SET a = 0")
        #expect(conn.changesCount == 2)
    }
}
