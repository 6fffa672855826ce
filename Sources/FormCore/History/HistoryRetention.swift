public import FoundationEssentials

/// How long a record's history is kept: pruned in the transaction of each
/// save that adds to it, so it never grows past what was asked.
///
/// ```swift
/// store.historyRetention = .latest(50)      // the last 50 saves of each record
/// store.historyRetention = .days(90)        // saves of the last 90 days
/// ```
public struct HistoryRetention: Sendable, Hashable {
    /// At most this many saves per record (`nil`: no limit).
    public var maximumCount: Int?
    /// Saves older than this are dropped (`nil`: no limit).
    public var maximumAge: Duration?

    public init(maximumCount: Int? = nil, maximumAge: Duration? = nil) {
        self.maximumCount = maximumCount
        self.maximumAge = maximumAge
    }

    /// Everything is kept.
    public static let forever = HistoryRetention()

    public static func latest(_ count: Int) -> HistoryRetention { HistoryRetention(maximumCount: count) }

    public static func days(_ days: Int) -> HistoryRetention { HistoryRetention(maximumAge: .seconds(days * 86_400)) }

    /// The oldest moment kept, seen from `now`; `nil` when age does not matter.
    public func cutoff(now: Date) -> Date? {
        guard let maximumAge else { return nil }
        let (seconds, attoseconds) = maximumAge.components
        return now.addingTimeInterval(-(Double(seconds) + Double(attoseconds) / 1e18))
    }
}
