import CSQLite
import Dispatch
import FormStorage
import Synchronization
import Testing
@testable import formstore_bench

/// Runs the bench's in-process measurements once each, at the smallest size:
/// they must work and report a figure for every goal. Speed is not checked
/// here (that is the bench's job, run in release).
@Suite struct BenchSmokeTests {
    @Test func libraryCasesMeasureEveryGoal() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cases = InProcessCases(directory: scratch, size: .smoke)
        let path = try cases.prepare()
        let rows = [try cases.load(path), try cases.save(path, .normal, atMost: 1.3), try cases.keystroke(path)]
        #expect(rows.map(\.name) == ["load", "save (synchronous=NORMAL)", "keystroke"])
        for row in rows {
            #expect((row.formstore ?? 0) > 0, "\(row.name) measured nothing")
            #expect(row.met != nil)
        }
    }

    /// Each load floor's `Person` is the C read's, and its case measures both sides.
    @Test(arguments: ["codable", "kept"])
    func aLoadFloorDecodesTheSamePersonAsTheCRead(_ floor: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cases = InProcessCases(directory: scratch, size: .smoke)
        let path = try cases.prepare()
        let select = try RawConnection(path: path).prepare(Person.selectSQL)
        for id: Int64 in [1, 2, 500] {
            sqlite3_bind_int64(select.pointer, 1, id)
            #expect(sqlite3_step(select.pointer) == SQLITE_ROW)
            let decoded = floor == "kept" ? try Person(from: KeptRowDecoder(row: KeptRow(select)))
                                          : try Person(from: StatementDecoder(statement: select))
            #expect(decoded == Person(row: select))
            sqlite3_reset(select.pointer)
        }
        let row = floor == "kept" ? try cases.loadKeptFloor(path) : try cases.loadFloor(path)
        #expect((row.formstore ?? 0) > 0 && (row.baseline ?? 0) > 0 && row.met == nil)
    }

    @Test func thePickerCaseSearchesTheReferencedRows() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let row = try PickerCase(directory: scratch, size: .smoke).run()
        #expect(row.name == "picker search (1000 referenced rows)")
        #expect((row.formstore ?? 0) > 0 && (row.baseline ?? 0) > 0)
        #expect(row.met != nil)
    }

    @Test func liveCasesMeasureHistoryIdleCostAndCommitLatency() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try InProcessCases(directory: scratch, size: .smoke).prepare()
        let live = LiveCases(directory: scratch, size: .smoke)
        let rows = try live.historyOverhead(path) + [try live.idleSession(path)] + (try live.commitHeard(path))
        #expect(rows.map(\.name) == ["save with history (synchronous=FULL)", "the floor: history in C (synchronous=FULL)",
                                     "idle session watching for other writers",
                                     "another connection's commit heard: median", "another connection's commit heard: slowest"])
        for row in rows { #expect(row.formstore != nil && row.met != nil) }
    }

    @Test func theServiceCaseMeasuresThroughputP99AndMeanAtBothLevelsAndTheFloors() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try InProcessCases(directory: scratch, size: .smoke).prepare()
        let rows = try ServiceCase(directory: scratch, size: .smoke).run(path)
        func measured(_ level: String) -> [String] {
            ["service, 8 tasks: throughput (synchronous=\(level))", "service, 8 tasks: p99 latency (synchronous=\(level))",
             "service, 8 tasks: mean latency (synchronous=\(level))"]
        }
        let floor = "the floor: service throughput (synchronous=NORMAL) vs C threads doing the same transaction"
        let latencyFloor = "the floor: service p99 latency (synchronous=FULL) vs C threads taking turns"
        #expect(rows.map(\.name) == measured("NORMAL") + [floor] + measured("FULL") + [latencyFloor])
        for row in rows {
            #expect((row.formstore ?? 0) > 0 && (row.baseline ?? 0) > 0, "\(row.name) measured nothing")
            // The mean is the p99's context, with no goal of its own.
            if row.name.contains("mean") {
                #expect(row.met == nil && row.note?.contains("the slowest request") == true)
            } else {
                #expect(row.met != nil)
            }
        }
        #expect(percentile99((1...100).map(Double.init)) == 99)
    }

    /// The C threads' turns: one at a time, each served once it waits.
    @Test func ticketLockServesOneThreadAtATime() {
        let turns = TicketLock()
        let inside = Mutex((now: 0, most: 0, served: 0))
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<50 {
                turns.wait()
                inside.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                inside.withLock { $0.now -= 1; $0.served += 1 }
                turns.done()
            }
        }
        #expect(inside.withLock { $0.most } == 1)
        #expect(inside.withLock { $0.served } == 400)
    }

    @Test func budgetCasesStayBoundedAndRefuseTheValue() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let budgets = BudgetCases(directory: scratch, size: .smoke)
        // Each throws when the form did not save or the value was not refused.
        let rows = [try budgets.conditionalForm(), try budgets.pathologicalPattern()]
        #expect(rows.allSatisfy { ($0.formstore ?? 0) > 0 && $0.met != nil })
    }

    @Test func typingKeepsEveryKeystrokeInTheDraft() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let typing = TypingCase(directory: scratch, size: .smoke)
        let path = scratch.file("typing.sqlite")
        try WideRecord.create(in: RawConnection(path: path), count: 3)
        // inProcess throws when the draft does not hold what was typed.
        let rows = try typing.inProcess(path)
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0.formstore != nil })
    }

    @Test func typedValuesMoveToTheNextFieldAfterTwentyLetters() {
        #expect(TypingCase.typedValues(after: 0) == [:])
        #expect(TypingCase.typedValues(after: 3) == ["f1": "abc"])
        #expect(TypingCase.typedValues(after: 22) == ["f1": "abcdefghijklmnopqrst", "f2": "ab"])
    }

    @Test func medianOfOddAndEvenCounts() {
        #expect(median([3, 1, 2]) == 2)
        #expect(median([4, 1, 3, 2]) == 2.5)
    }

    @Test func tableShowsRatiosAndUnmetGoals() {
        let row = ResultRow.ratio("load", Paired(subject: 4e-6, baseline: 2e-6), unit: "µs", scale: 1e6, atMost: 1.5)
        #expect(row.met == false)
        let report = Report(mode: "smoke", date: "", machine: "",
                            settings: SQLiteSetting(sqliteVersion: "", sqlite3Command: "", journalMode: "wal",
                                                    synchronous: "FULL", busyTimeoutMilliseconds: 5000,
                                                    pageSize: 4096, foreignKeys: true),
                            rows: [row])
        #expect(report.table().contains("| load | 4.00 µs   | 2.00 µs  | 2.00× | ≤ 1.5× | NO   |"))
    }
}
