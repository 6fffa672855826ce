import Foundation
import Testing
@testable import formstore_bench

/// Runs the bench's PostgreSQL cases once each, at the smallest size, against
/// the test cluster: they must work and report a figure for every goal. Speed
/// is not checked here (that is the bench's job, run in release).
@Suite struct PostgresBenchSmokeTests {
    @Test func postgresCasesMeasureEveryGoal() async throws {
        let url = try PostgresCluster.freshDatabase()
        // On a thread of its own: the writers case blocks its thread until its
        // tasks finish, which must not hold one of the few threads of Swift's pool.
        let rows = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[ResultRow], any Error>) in
            Thread {
                continuation.resume(with: Result {
                    let cases = PostgresCases(url: url, size: .smoke)
                    let store = try cases.prepare()
                    return [try cases.load(store), try cases.save(store), try cases.writers(store)]
                })
            }.start()
        }
        #expect(rows.map(\.name) == ["PostgreSQL load", "PostgreSQL save", "PostgreSQL, 8 writers: throughput"])
        for row in rows {
            #expect((row.formstore ?? 0) > 0 && (row.baseline ?? 0) > 0, "\(row.name) measured nothing")
            #expect(row.met != nil)
        }
    }
}
