public import FoundationEssentials

/// How long a record's history is kept: pruned in the transaction of each
/// save that adds to it, so it never grows past what was asked.
///
/// ```swift
/// store.historyRetention = .latest(50)      // the last 50 saves of each record
/// store.historyRetention = .days(90)        // saves of the last 90 days
/// ```
///
/// The save just made is always kept: it is the newest change in the table,
/// and while it stays, no change id is ever given twice (SQLite gives a new
/// row the largest id plus one). So a count of 0 keeps what a count of 1 does,
/// each record's latest save, and an age of 0 or less keeps only the latest
/// save in the table (and any made in the same millisecond).
public struct HistoryRetention: Sendable, Hashable {
    /// At most this many saves per record (`nil`: no limit); at least 1 is kept.
    public var maximumCount: Int?
    /// Saves older than this are dropped (`nil`: no limit), the save just made never.
    public var maximumAge: Duration?

    public init(maximumCount: Int? = nil, maximumAge: Duration? = nil) {
        self.maximumCount = maximumCount
        self.maximumAge = maximumAge
    }

    /// Everything is kept.
    public static let forever = HistoryRetention()

    public static func latest(_ count: Int) -> HistoryRetention { HistoryRetention(maximumCount: count) }

    public static func days(_ days: Int) -> HistoryRetention { HistoryRetention(maximumAge: .seconds(days * 86_400)) }

    /// How many of a record's saves a save keeps, its own among them: `maximumCount`, at least 1.
    public var keptCount: Int? { maximumCount.map { max($0, 1) } }

    /// The oldest moment kept, seen from `now` and never after it (the save
    /// made at `now` is kept); `nil` when age does not matter.
    public func cutoff(now: Date) -> Date? {
        guard let maximumAge else { return nil }
        let (seconds, attoseconds) = maximumAge.components
        return now.addingTimeInterval(-max(Double(seconds) + Double(attoseconds) / 1e18, 0))
    }
}
