import FormCore
import FormStorage
import Synchronization

/// The loop every save case shares: a session's save of one field against
/// the same write done in C, interleaved round by round.
extension InProcessCases {
    /// Rounds and saves per round for a save at `synchronous`: at FULL every
    /// save waits for an fsync whose time on a shared disk swings from round
    /// to round, so single saves alternate, many of them.
    func saveRounds(_ synchronous: Configuration.Synchronous) -> (rounds: Int, perRound: Int) {
        synchronous == .full ? (size.pick(smoke: 1, quick: 301, full: 1001), 1)
            : (size.pick(smoke: 1, quick: 15, full: 31), size.pick(smoke: 1, quick: 200, full: 500))
    }

    /// Texts the save cases wrote, counted across the cases: a case that
    /// saved the record an earlier one saved never sets the text already
    /// there (which would leave nothing to save).
    private static let textsWritten = Atomic<Int>(0)

    /// `session` sets `field` to a new text and saves, `perRound` times a
    /// round, against `baseline` writing the same new text in C; the time of
    /// one save on each side. Each side writes its own record, so neither
    /// sees a conflict.
    func interleavedSaves(_ session: FormSession, field: String, rounds: Int, perRound: Int,
                          baseline write: (String) throws -> Void) throws -> Paired {
        let next = { "Paris \(Self.textsWritten.add(1, ordering: .relaxed).newValue)" }
        return try interleaved(rounds: rounds, baseline: {
            try seconds {
                for _ in 0..<perRound {
                    try write(next())
                }
            } / Double(perRound)
        }, subject: {
            try seconds {
                for _ in 0..<perRound {
                    try session.set(field, input: next())
                    guard case .saved = try session.save() else { throw BenchError("save did not save") }
                }
            } / Double(perRound)
        })
    }
}
