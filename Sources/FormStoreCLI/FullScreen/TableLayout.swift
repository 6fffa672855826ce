import FormCore

/// A group's table on the screen: which columns are shown and how wide.
/// Columns are as wide as their widest text (by display width, capped);
/// a table wider than the screen shows the columns from `first` on, the
/// focused cell's column always among them, an ellipsis where columns are cut.
struct TableLayout {
    /// Where the first shown column begins (the marker of a changed row is before it).
    static let origin = 5
    static let gap = 2
    static let widest = 30

    let columns: [Field]
    let widths: [Int]
    /// The first column shown.
    let first: Int
    /// The columns shown, as indices into `columns`.
    let shown: Range<Int>

    /// `focused` is the focused cell's column, when the focus is in this table.
    init(group: RowGroup, session: FormSession, width: Int, first wanted: Int, focused: String?,
         labels: ReferenceLabels? = nil) {
        columns = FormScreen.columns(group)
        let rows = session.rows(group.key)
        let room = max(4, width - Self.origin - 2)
        widths = columns.map { field in
            // The focused column has room for the cursor after its widest text
            // (else a cell exactly as wide as its column scrolls its first character away).
            let cursor = field.key == focused ? 1 : 0
            // Measured as drawn: a line break's ⏎ takes a column its character does not.
            let texts = rows.map { row in
                max(DisplayWidth.of(FormScreen.cellText(group, row, field, in: session, labels: labels)),
                    field.isSecure ? 0 : DisplayWidth.of(session.rowText(group.key, row.id, field.key))) + cursor
            }
            return min(room, Self.widest, max(3, DisplayWidth.of(field.label), texts.max() ?? 0))
        }
        var first = min(max(0, wanted), max(0, columns.count - 1))
        if let focused, let index = columns.firstIndex(where: { $0.key == focused }) {
            first = min(first, index)
            while first < index && Self.end(from: first, through: index, widths: widths) > room { first += 1 }
        }
        // No room left empty on the right while columns are cut on the left (a wider terminal).
        while first > 0, Self.end(from: first - 1, through: columns.count - 1, widths: widths) <= room { first -= 1 }
        var last = first
        var used = 0
        while last < columns.count, used + widths[last] <= room {
            used += widths[last] + Self.gap
            last += 1
        }
        self.first = first
        shown = first..<max(last, min(first + 1, columns.count))
    }

    private static func end(from first: Int, through last: Int, widths: [Int]) -> Int {
        widths[first...last].reduce(0, +) + Self.gap * (last - first)
    }

    /// Where column `index` (one of `shown`) begins on the screen.
    func start(of index: Int) -> Int {
        Self.origin + widths[first..<index].reduce(0) { $0 + $1 + Self.gap }
    }

    /// Where the shown columns end.
    var end: Int { shown.isEmpty ? Self.origin : start(of: shown.upperBound - 1) + widths[shown.upperBound - 1] }

    var isCutLeft: Bool { first > 0 }
    var isCutRight: Bool { shown.upperBound < columns.count }
}
