import FormCore
import FormStorage

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

    /// `session` sets `field` to a new text and saves, `perRound` times a
    /// round, against `baseline` writing the same new text in C; the time of
    /// one save on each side. Each side writes its own record, so neither
    /// sees a conflict.
    func interleavedSaves(_ session: FormSession, field: String, rounds: Int, perRound: Int,
                          baseline write: (String) throws -> Void) throws -> Paired {
        var counter = 0
        return try interleaved(rounds: rounds, baseline: {
            try seconds {
                for _ in 0..<perRound {
                    counter += 1
                    try write("Paris \(counter)")
                }
            } / Double(perRound)
        }, subject: {
            try seconds {
                for _ in 0..<perRound {
                    counter += 1
                    try session.set(field, input: "Paris \(counter)")
                    guard case .saved = try session.save() else { throw BenchError("save did not save") }
                }
            } / Double(perRound)
        })
    }
}
