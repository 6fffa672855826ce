import FormStorage
import Testing
@testable import formstore_bench

/// The save's floor in C and the 200-field form's cases run once each, at
/// the smallest size, and report a figure against a baseline.
@Suite struct BenchWideSmokeTests {
    @Test func theFloorAndTheWideFormMeasureEveryGoal() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cases = InProcessCases(directory: scratch, size: .smoke)
        let path = try cases.prepare()
        try cases.prepareWide(path)
        let rows = [try cases.saveFloor(path, .normal, atMost: 1.5), try cases.saveFloor(path, .full, atMost: 1.1),
                    try cases.wideKeystroke(path), try cases.wideSave(path, .normal, atMost: 2.0),
                    try cases.wideSaveFloor(path, .normal, atMost: 1.5)]
        #expect(rows.map(\.name) == ["save (synchronous=NORMAL) vs the same transaction in C (read, update, history)",
                                     "save (synchronous=FULL) vs the same transaction in C (read, update, history)",
                                     "keystroke, 200-field form", "save, 200-field form (synchronous=NORMAL)",
                                     "save, 200-field form (synchronous=NORMAL) vs the same transaction in C"])
        for row in rows {
            #expect((row.formstore ?? 0) > 0 && (row.baseline ?? 0) > 0, "\(row.name) measured nothing")
            #expect(row.met != nil)
        }
    }
}
