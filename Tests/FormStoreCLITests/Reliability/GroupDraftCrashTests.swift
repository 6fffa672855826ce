import FormStoreTestSupport
import Foundation
import Testing
import FormCore
import FormStorage

/// A process adding child rows to a never-saved invoice is killed with SIGKILL;
/// its draft holds at least the rows last flushed, and restores them.
@Suite struct GroupDraftCrashTests {
    static let schema = """
        CREATE TABLE invoice (id INTEGER PRIMARY KEY, customer TEXT NOT NULL);
        CREATE TABLE invoice_line (
            id INTEGER PRIMARY KEY,
            invoice_id INTEGER NOT NULL REFERENCES invoice(id),
            item TEXT NOT NULL,
            amount INTEGER NOT NULL
        );
        INSERT INTO invoice VALUES (1, 'Ann');
        INSERT INTO invoice_line VALUES (10, 1, 'Tea', 3);
        """

    @Test func aDraftWithAddedRowsSurvivesSIGKILLAndIsRestored() throws {
        let scratch = try TemporaryDirectory()
        let database = scratch.path + "/rows.sqlite"
        try sqlite3(database, input: Self.schema)
        let log = scratch.path + "/log"
        let child = try StressHelper.start(["rows", "--db", database, "--log", log], errors: scratch.path + "/stderr")
        // Killed once it has flushed a few drafts.
        let deadline = Date().addingTimeInterval(20)
        while child.isRunning && Date() < deadline && StressHelper.log(log).count < 3 { usleep(1_000) }
        usleep(UInt32.random(in: 0...5_000))
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        let errors = (try? String(contentsOfFile: scratch.path + "/stderr", encoding: .utf8)) ?? ""
        try #require(child.terminationReason == .uncaughtSignal, "the child ended by itself: \(errors)")
        let flushed = try #require(StressHelper.log(log).last, "nothing was flushed: \(errors)")
        let acknowledged = try #require(Int(flushed[2]))

        let store = try FormStore(path: database)
        let tables = try store.tables()
        let form = FormInference.form(for: try #require(tables.first { $0.name == "invoice" }), including: tables)
        let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store, drafts: store)
        let draft = try #require(session.offeredDrafts.first { $0.id == flushed[1] })
        let restore = try session.restore(draft)
        #expect(restore.conflicts.isEmpty)
        let items = session.rows("invoice_line").map { $0["item"].textValue ?? "" }
        #expect(items.first == "Tea")
        // At least every row acknowledged, in order, and nothing else.
        #expect(items.count - 1 >= acknowledged)
        #expect(Array(items.dropFirst()) == (1...(items.count - 1)).map { "item \($0)" })
        // Restored rows save like typed ones.
        #expect(try session.save() == .saved(changed: ["invoice_line"], key: RecordKey("id", 1)))
        #expect(try sqlite3(database, ["SELECT count(*) FROM invoice_line"]) == "\(items.count)\n")
    }
}
