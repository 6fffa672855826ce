/// What deleting a record does to the rows that refer to it, by a foreign
/// key's `ON DELETE` rule: the database carries it out in the delete's own
/// transaction, so a person is told before (`formstore delete` asks with it).
/// A cascade is followed on: the rows deleted with the record have their own
/// referrers (`DeleteEffect.walk`).
public struct DeleteEffect: Sendable, Hashable, CustomStringConvertible {
    public enum Action: String, Sendable, Hashable {
        case cascade = "CASCADE"
        case setNull = "SET NULL"
        case setDefault = "SET DEFAULT"

        /// The action for a rule as the schema spells it; `nil` for one that
        /// leaves the rows alone (`NO ACTION`, `RESTRICT`: the delete is refused instead).
        public init?(rule: String) {
            switch rule.uppercased() {
            case "CASCADE": self = .cascade
            case "SET NULL": self = .setNull
            case "SET DEFAULT": self = .setDefault
            default: return nil
            }
        }
    }

    /// The referring table and its key's columns.
    public var table: String
    public var columns: [String]
    public var action: Action
    /// How many of its rows the delete reaches.
    public var rows: Int
    /// Whether there may be more: a chain of cascades longer than the walk
    /// follows (`DeleteEffect.walk`) reaches further rows.
    public var isAtLeast: Bool

    public init(table: String, columns: [String], action: Action, rows: Int, isAtLeast: Bool = false) {
        self.table = table
        self.columns = columns
        self.action = action
        self.rows = rows
        self.isAtLeast = isAtLeast
    }

    /// `3 rows of order_items deleted (ON DELETE CASCADE)`, `emp.boss cleared in 1 row (ON DELETE SET NULL)`.
    public var description: String {
        let rowsText = (isAtLeast ? "at least " : "") + (rows == 1 ? "1 row" : "\(rows) rows")
        let column = "\(table).\(columns.count == 1 ? columns[0] : "(\(columns.joined(separator: ", ")))")"
        switch action {
        case .cascade: return "\(rowsText) of \(table) deleted (ON DELETE CASCADE)"
        case .setNull: return "\(column) cleared in \(rowsText) (ON DELETE SET NULL)"
        case .setDefault: return "\(column) set to its default in \(rowsText) (ON DELETE SET DEFAULT)"
        }
    }
}


extension DeleteEffect {
    /// A foreign key that refers to a table, with its `ON DELETE` rule.
    public struct Referrer: Sendable, Hashable {
        /// The referring table, its key's columns and the columns they refer to.
        public var table: String
        public var columns: [String]
        public var referred: [String]
        /// `nil` for a rule that leaves the rows alone (the delete is refused instead).
        public var action: Action?
        /// The collating sequence of each referred column: SQLite matches a
        /// key by the parent's (a `COLLATE NOCASE` key's `'cd'` has `'CD'` rows).
        public var collations: [String]

        public init(table: String, columns: [String], referred: [String], action: Action?, collations: [String] = []) {
            self.table = table
            self.columns = columns
            self.referred = referred
            self.action = action
            self.collations = collations
        }

        /// `orders.customer`, or `t.(a, b)` for a composite key.
        public var name: String { "\(table).\(columns.count == 1 ? columns[0] : "(\(columns.joined(separator: ", ")))")" }

        /// The key's columns, each compared by its referred column's collation.
        var comparedColumns: String {
            zip(columns.indices, columns).map { index, column in
                collated(column, by: index < collations.count ? collations[index] : "BINARY")
            }.joined(separator: ", ")
        }
    }

    /// What deleting the rows of `table` that `selected` picks does, by every
    /// `ON DELETE` rule it reaches: the rows each cascade deletes are followed
    /// to their own referrers, level by level, as far as there are rows (a
    /// self-reference, an employee's boss, included), `depth` levels past the
    /// record's own referrers.
    ///
    /// Each level's rows are a condition on the level before, written in SQL
    /// over `selected` (whose parameters the caller binds to every query).
    /// A table whose rows go on past the last level is said `isAtLeast`.
    /// - parameter referrers: the foreign keys that refer to a table.
    /// - parameter count: the number of rows a `SELECT count(*)` returns.
    /// - parameter holdingBack: told each key under no `ON DELETE` rule with
    ///   rows (not deleted too) that refer to rows a cascade deletes: what
    ///   refuses the delete further down, where none refers to the record itself.
    public static func walk(table: String, selected: String, depth: Int = 32,
                            referrers: (String) throws -> [Referrer], count: (String) throws -> Int,
                            holdingBack: ((Referrer) -> Void)? = nil) throws -> [DeleteEffect] {
        func anyOf(_ conditions: [String]) -> String { conditions.map { "(\($0))" }.joined(separator: " OR ") }
        // Not `NOT (…)`: a row whose key column is NULL makes `IN` NULL, and `NOT NULL` is not true.
        func none(_ conditions: [String]) -> String { "(\(anyOf(conditions))) IS NOT TRUE" }
        func counted(_ table: String, _ condition: String) throws -> Int {
            try count("SELECT count(*) FROM \(quoteIdentifier(table)) WHERE \(condition)")
        }
        // The effects as first met; a cascade is one per table (its rows go
        // whichever key reached them), a cleared key one per key.
        var effects: [DeleteEffect] = []
        var met: Set<[String]> = []
        // Conditions, over each table's own columns, of the rows that go (the
        // record's own first) and of the rows each key clears.
        var deleted: [String: [String]] = [table: [selected]]
        var cleared: [[String]: [String]] = [:]
        var level: [(table: String, condition: String)] = [(table, selected)]
        var unfinished: Set<String> = []
        var referrersOf: [String: [Referrer]] = [:]
        // Past the last level, one more is looked at: rows found there are
        // counted, and their table said to go on.
        for step in 0...(depth + 1) where !level.isEmpty {
            var next: [String: [String]] = [:]
            var nextOrder: [String] = []
            for (parent, condition) in level {
                if referrersOf[parent] == nil { referrersOf[parent] = try referrers(parent) }
                for key in referrersOf[parent]! where key.columns.count == key.referred.count {
                    let rows = "(\(key.comparedColumns)) IN (SELECT "
                        + "\(key.referred.map(quoteIdentifier).joined(separator: ", ")) FROM \(quoteIdentifier(parent)) "
                        + "WHERE \(condition))"
                    guard let action = key.action else {
                        // Past the record's own level: rows that stay refer to rows a cascade deletes.
                        if step > 0, let holdingBack {
                            let going = (deleted[key.table] ?? []) + (next[key.table] ?? [])
                            if try counted(key.table, going.isEmpty ? rows : "(\(rows)) AND \(none(going))") > 0 { holdingBack(key) }
                        }
                        continue
                    }
                    let already = (deleted[key.table] ?? []) + (next[key.table] ?? [])
                    // Only conditions that pick rows not picked already are kept: the walk ends where new rows do.
                    let fresh = action == .cascade && !already.isEmpty ? "(\(rows)) AND \(none(already))" : rows
                    guard try counted(key.table, fresh) > 0 else { continue }
                    let id = action == .cascade ? [key.table] : [key.table, action.rawValue] + key.columns
                    if met.insert(id).inserted {
                        effects.append(DeleteEffect(table: key.table, columns: key.columns, action: action, rows: 0))
                    }
                    guard action == .cascade else {
                        cleared[id, default: []].append(rows)
                        continue
                    }
                    if step > depth { unfinished.insert(key.table) }
                    if next[key.table] == nil { nextOrder.append(key.table) }
                    next[key.table, default: []].append(rows)
                }
            }
            for name in nextOrder { deleted[name, default: []].append(contentsOf: next[name]!) }
            level = nextOrder.map { ($0, anyOf(next[$0]!)) }
        }
        // What goes is said first, then what is cleared, each in the order met.
        let said = effects.filter { $0.action == .cascade } + effects.filter { $0.action != .cascade }
        return try said.compactMap { effect in
            var effect = effect
            let going = deleted[effect.table] ?? []
            if effect.action == .cascade {
                // The record itself goes anyway: not counted when its table refers to itself.
                effect.rows = try counted(effect.table, effect.table == table
                                          ? "(\(anyOf(Array(going.dropFirst())))) AND \(none([selected]))" : anyOf(going))
                effect.isAtLeast = unfinished.contains(effect.table)
            } else {
                // A row deleted anyway is not said to be cleared as well.
                let id = [effect.table, effect.action.rawValue] + effect.columns
                effect.rows = try counted(effect.table, "(\(anyOf(cleared[id]!)))" + (going.isEmpty ? "" : " AND \(none(going))"))
            }
            return effect.rows > 0 ? effect : nil
        }
    }
}
