import FormStorage
import FormStoreTestSupport
import Testing

private struct Cancelled: Error {}

@Suite struct TransactionTests {
    let directory: TemporaryDirectory
    let db: Database

    init() throws {
        directory = try TemporaryDirectory()
        db = try Database(path: directory.path("db.sqlite"))
        try db.write { try $0.execute("CREATE TABLE t(a INTEGER)") }
    }

    private func count() throws -> Int? {
        try db.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM t") }
    }

    @Test func writeCommitsAndReturnsAValue() throws {
        let id = try db.write { conn in
            try conn.execute("INSERT INTO t VALUES (1)")
            return conn.lastInsertedRowID
        }
        #expect(id == 1)
        #expect(try count() == 1)
    }

    @Test(arguments: [TransactionKind.deferred, .immediate, .exclusive])
    func everyKindOfTransactionBeginsAndCommits(_ kind: TransactionKind) throws {
        try db.writeWithoutTransaction { conn in
            try conn.transaction(kind) {
                #expect(conn.isInsideTransaction)
                try conn.execute("INSERT INTO t VALUES (1)")
            }
            #expect(!conn.isInsideTransaction)
        }
        #expect(try count() == 1)
    }

    @Test func aThrownErrorRollsBack() throws {
        #expect(throws: Cancelled.self) {
            try db.write { conn in
                try conn.execute("INSERT INTO t VALUES (1)")
                throw Cancelled()
            }
        }
        #expect(try count() == 0)
        try db.writeWithoutTransaction { conn in #expect(!conn.isInsideTransaction) }
    }

    @Test func aFailedStatementRollsBackTheWholeWrite() throws {
        let error = databaseError {
            try db.write { conn in
                try conn.execute("INSERT INTO t VALUES (1)")
                try conn.execute("INSERT INTO missing VALUES (1)")
            }
        }
        #expect(error?.resultCode == .SQLITE_ERROR)
        #expect(try count() == 0)
    }

    @Test func nestedTransactionsAreSavepoints() throws {
        try db.write { conn in
            try conn.execute("INSERT INTO t VALUES (1)")
            do {
                try conn.transaction {
                    try conn.execute("INSERT INTO t VALUES (2)")
                    throw Cancelled()
                }
            } catch {
                #expect(error is Cancelled)
            }
            try conn.transaction {
                try conn.execute("INSERT INTO t VALUES (3)")
                try conn.transaction { try conn.execute("INSERT INTO t VALUES (4)") }
            }
            #expect(conn.isInsideTransaction)
        }
        let values = try db.read { try $0.fetchAll("SELECT a FROM t ORDER BY a").map { try $0.value(at: 0, as: Int.self) } }
        #expect(values == [1, 3, 4])
    }

    /// Savepoints nested past the depths whose statements are made once:
    /// a failure at the deepest undoes only its own row.
    @Test func savepointsNestedSixDeepUndoOnlyTheirOwn() throws {
        func nest(_ depth: Int, _ conn: Connection) throws {
            try conn.execute("INSERT INTO t VALUES (?)", [depth])
            guard depth < 6 else { throw Cancelled() }
            try conn.transaction { try nest(depth + 1, conn) }
        }
        try db.write { conn in
            try conn.execute("INSERT INTO t VALUES (0)")
            do {
                try conn.transaction { try nest(1, conn) }
            } catch {
                #expect(error is Cancelled)
            }
        }
        // The throw at depth 6 goes out through every savepoint: only the row outside them stays.
        #expect(try count() == 1)
        try db.write { conn in
            try conn.transaction {
                try conn.transaction {
                    try conn.transaction {
                        try conn.transaction {
                            try conn.transaction {
                                try conn.execute("INSERT INTO t VALUES (5)")
                                _ = try? conn.transaction { () throws -> Void in
                                    try conn.execute("INSERT INTO t VALUES (6)")
                                    throw Cancelled()
                                }
                            }
                        }
                    }
                }
            }
        }
        let values = try db.read { try $0.fetchAll("SELECT a FROM t ORDER BY a").map { try $0.value(at: 0, as: Int.self) } }
        #expect(values == [0, 5])
    }

    @Test func nestedWriteOnTheSameThreadIsASavepoint() throws {
        try db.write { conn in
            try conn.execute("INSERT INTO t VALUES (1)")
            _ = try? db.write { inner -> Void in
                try inner.execute("INSERT INTO t VALUES (2)")
                throw Cancelled()
            }
        }
        #expect(try count() == 1)
    }

    @Test func writeTakesTheWriteLockAtOnce() throws {
        var config = Configuration()
        config.busyTimeout = .zero
        let other = try Connection(path: db.path, configuration: config)
        try db.write { _ in
            // BEGIN IMMEDIATE holds the lock before any statement writes.
            let error = databaseError { try other.execute("BEGIN IMMEDIATE") }
            #expect(error?.isBusy == true)
        }
        #expect(!other.isInsideTransaction)
    }

    @Test func theBodyEndingTheTransactionItselfLeavesNothingOpen() throws {
        #expect(throws: Cancelled.self) {
            try db.write { conn in
                try conn.execute("INSERT INTO t VALUES (1)")
                try conn.transaction {
                    try conn.execute("ROLLBACK")
                    throw Cancelled()
                }
            }
        }
        try db.writeWithoutTransaction { conn in #expect(!conn.isInsideTransaction) }
        #expect(try count() == 0)
    }

    @Test func aTransactionLeftOpenIsRolledBackAndReported() throws {
        let error = databaseError {
            try db.writeWithoutTransaction { conn in
                try conn.execute("BEGIN")
                try conn.execute("INSERT INTO t VALUES (1)")
            }
        }
        #expect(error?.resultCode == .SQLITE_MISUSE)
        #expect(try count() == 0)
        try db.writeWithoutTransaction { conn in #expect(!conn.isInsideTransaction) }
    }

    @Test func aFailedCommitRollsBack() throws {
        try db.write { conn in
            try conn.execute("CREATE TABLE parent(id INTEGER PRIMARY KEY)")
            try conn.execute("""
                CREATE TABLE child(parent INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)
                """)
        }
        let error = databaseError {
            try db.write { try $0.execute("INSERT INTO child VALUES (42)") }
        }
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        try db.writeWithoutTransaction { conn in #expect(!conn.isInsideTransaction) }
        #expect(try db.read { try $0.fetchValue(Int.self, "SELECT count(*) FROM child") } == 0)
    }

    @Test func readsSeeOneSnapshot() throws {
        try db.write { try $0.execute("INSERT INTO t VALUES (1)") }
        try db.read { conn in
            let before = try conn.fetchValue(Int.self, "SELECT count(*) FROM t")
            try db.write { try $0.execute("INSERT INTO t VALUES (2)") }
            let after = try conn.fetchValue(Int.self, "SELECT count(*) FROM t")
            #expect(before == 1)
            #expect(after == 1)
        }
        #expect(try count() == 2)
    }
}
