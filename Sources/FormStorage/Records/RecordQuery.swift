import FormCore

/// Which records a query returns and in what order: filters (all must hold),
/// a text search, a sort, and a window (`offset`, `limit`).
///
/// ```swift
/// var query = RecordQuery(filters: [RecordFilter(field: "age", test: .compare(.greaterOrEqual, .int(30)))])
/// query.order = [RecordOrder(field: "created_at", descending: true)]
/// query.search = "ann"
/// query.limit = 10
/// ```
public struct RecordQuery: Sendable, Hashable {
    public var filters: [RecordFilter]
    /// Text every record must hold in one of the form's text fields (secure
    /// fields are not searched); `%` and `_` are matched as themselves.
    public var search: String?
    /// Sort keys before the primary key (which always ends the order, so pages are stable).
    public var order: [RecordOrder]
    /// Records skipped before the first one returned.
    public var offset: Int
    public var limit: Int?
    /// With no sort keys, the rows of a table keyed by other than its rowid
    /// (TEXT, several columns) in the order SQLite keeps them, by rowid, not
    /// by key: what an export gives, so a copy imported from it holds its
    /// rows under the same rowids (`.dump` the same).
    public var inStoredOrder = false

    public init(filters: [RecordFilter] = [], search: String? = nil, order: [RecordOrder] = [],
                offset: Int = 0, limit: Int? = nil) {
        self.filters = filters
        self.search = search
        self.order = order
        self.offset = offset
        self.limit = limit
    }
}

/// One sort key of a query: a stored field (or key column), ascending unless
/// `descending`. Dates sort by instant whatever form each row holds them in.
public struct RecordOrder: Sendable, Hashable {
    public var field: String
    public var descending: Bool

    public init(field: String, descending: Bool = false) {
        self.field = field
        self.descending = descending
    }
}
