import FormStoreTestSupport
import Foundation
import FormStorage
import Testing

@Suite struct DatabaseErrorTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    @Test func constraintViolation() throws {
        let db = try Database(path: directory.path("db.sqlite"))
        try db.write { try $0.execute("CREATE TABLE person(email TEXT UNIQUE NOT NULL)") }
        try db.write { try $0.execute("INSERT INTO person VALUES (?)", ["a@example.com"]) }
        let error = databaseError {
            try db.write { try $0.execute("INSERT INTO person VALUES (?)", ["a@example.com"]) }
        }
        #expect(error?.resultCode == .SQLITE_CONSTRAINT)
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
        #expect(error?.isConstraint == true)
        #expect(error?.message == "UNIQUE constraint failed: person.email")
        #expect(error?.sql == "INSERT INTO person VALUES (?)")
    }

    @Test func catchPatternsMatchEveryExtendedCode() throws {
        let conn = try Connection(path: ":memory:")
        try conn.execute("CREATE TABLE t(a NOT NULL)")
        var matchedPrimary = false
        do {
            try conn.execute("INSERT INTO t VALUES (NULL)")
        } catch DatabaseError.SQLITE_CONSTRAINT {
            matchedPrimary = true
        }
        #expect(matchedPrimary)
        var matchedWhere = false
        do {
            try conn.execute("INSERT INTO t VALUES (NULL)")
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            matchedWhere = error.extendedResultCode == .SQLITE_CONSTRAINT_NOTNULL
        }
        #expect(matchedWhere)
        #expect(ResultCode.SQLITE_CONSTRAINT ~= ResultCode.SQLITE_CONSTRAINT_NOTNULL)
        #expect(!(ResultCode.SQLITE_CONSTRAINT_UNIQUE ~= ResultCode.SQLITE_CONSTRAINT_NOTNULL))
    }

    @Test func syntaxError() throws {
        let conn = try Connection(path: ":memory:")
        let error = databaseError { try conn.execute("SELEKT 1") }
        #expect(error?.resultCode == .SQLITE_ERROR)
        #expect(error?.message?.contains("syntax error") == true)
        #expect(error?.sql == "SELEKT 1")
    }

    @Test func busyPastTheTimeout() throws {
        let path = directory.path("db.sqlite")
        var config = Configuration()
        config.busyTimeout = .milliseconds(100)
        let db = try Database(path: path, configuration: config)
        try db.write { try $0.execute("CREATE TABLE t(a)") }
        let holder = try Connection(path: path)
        try holder.execute("BEGIN IMMEDIATE")
        defer { try? holder.execute("ROLLBACK") }
        let error = databaseError {
            try db.write { try $0.execute("INSERT INTO t VALUES (1)") }
        }
        #expect(error?.isBusy == true)
        #expect(error?.resultCode == .SQLITE_BUSY)
        try db.writeWithoutTransaction { conn in #expect(!conn.isInsideTransaction) }
    }

    @Test func readOnlyDatabase() throws {
        let path = directory.path("db.sqlite")
        try Connection(path: path).execute("CREATE TABLE t(a)")
        var config = Configuration()
        config.readOnly = true
        let db = try Database(path: path, configuration: config)
        let error = databaseError {
            try db.write { try $0.execute("INSERT INTO t VALUES (1)") }
        }
        #expect(error?.isReadOnly == true)
        #expect(try db.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM t") } == 0)
    }

    @Test func writingInAReadIsReadOnly() throws {
        let db = try Database(path: directory.path("db.sqlite"))
        try db.write { try $0.execute("CREATE TABLE t(a)") }
        let error = databaseError { try db.read { try $0.execute("INSERT INTO t VALUES (1)") } }
        #expect(error?.isReadOnly == true)
    }

    @Test func missingDirectory() throws {
        let path = directory.path("missing/dir/db.sqlite")
        let error = databaseError { _ = try Database(path: path) }
        #expect(error?.isCantOpen == true)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func readOnlyOpenOfMissingFile() throws {
        var config = Configuration()
        config.readOnly = true
        let error = databaseError { _ = try Connection(path: directory.path("absent.sqlite"), configuration: config) }
        #expect(error?.isCantOpen == true)
    }

    @Test func notADatabase() throws {
        let path = directory.path("text.sqlite")
        try Data(String(repeating: "this is not an SQLite database\n", count: 100).utf8)
            .write(to: URL(fileURLWithPath: path))
        let error = databaseError { _ = try Database(path: path) }
        #expect(error?.resultCode == .SQLITE_NOTADB)
        #expect(error?.isCorrupt == true)
    }

    @Test func boundValuesNeverAppearInTheDescription() throws {
        let conn = try Connection(path: ":memory:")
        try conn.execute("CREATE TABLE secret(token TEXT PRIMARY KEY)")
        try conn.execute("INSERT INTO secret VALUES (?)", ["hunter2-secret-token"])
        let error = databaseError {
            try conn.execute("INSERT INTO secret VALUES (?)", ["hunter2-secret-token"])
        }
        let text = try #require(error).description
        #expect(!text.contains("hunter2"))
        #expect(!String(reflecting: try #require(error)).contains("hunter2"))
        #expect(text.contains("SQLITE_CONSTRAINT_PRIMARYKEY"))
        #expect(text.contains("INSERT INTO secret VALUES (?)"))
    }

    @Test func conversionErrorsNameTheClassNotTheValue() throws {
        let conn = try Connection(path: ":memory:")
        let error = databaseError { _ = try conn.fetchValue(Int.self, "SELECT ?", ["hunter2"]) }
        #expect(error?.resultCode == .SQLITE_MISMATCH)
        #expect(error?.description.contains("hunter2") == false)
    }

    @Test func descriptionIsOneLine() throws {
        let conn = try Connection(path: ":memory:")
        let error = databaseError { try conn.execute("SELECT\n  nonsense(\n)") }
        let text = try #require(error).description
        #expect(!text.contains("\n"))
        #expect(text.hasPrefix("SQLite error 1 (SQLITE_ERROR): "))
    }
}
