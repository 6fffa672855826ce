import FormBasics
import FormCore
import FormStorage

/// Rows of an import that a foreign key refused for want of a row of the
/// form's own table, by the row they wait for: the key's columns, the
/// values as `matchText` writes them, then as given. A line that writes a
/// row gives back those waiting for exactly its values, and those waiting
/// for values near them (another case, `5.00` for `5`) once the database
/// says the row they want is there: near matches cost one look a group,
/// never a try of every row.
struct ReferenceWaits {
    let table: String
    /// By the key's columns (lowercased, joined by U+001F), by the values'
    /// match texts, by their texts as given (both so joined).
    private var rows: [String: [String: [String: [InputRecord]]]] = [:]

    init(table: String) {
        self.table = table
    }

    var isEmpty: Bool { rows.isEmpty }

    /// Keeps `input` until a line writes the row `reference` names; false
    /// when that row is of another table (no line of this import writes it).
    mutating func add(_ input: InputRecord, waitingFor reference: FormStoreError.MissingReference) -> Bool {
        guard reference.table.equalsIgnoringCase(table) else { return false }
        let columns = reference.columns.map { $0.lowercased() }.joined(separator: "\u{1f}")
        rows[columns, default: [:]][Self.matchText(reference.values), default: [:]][Self.exactText(reference.values), default: []]
            .append(input)
        return true
    }

    /// The rows waiting for the row `input` wrote, taken out: those waiting
    /// for exactly its values, and each group waiting for values near them
    /// whose first row `isSatisfied` (its references all found now).
    mutating func take(satisfiedBy input: InputRecord, isSatisfied: (InputRecord) throws -> Bool) rethrows -> [InputRecord] {
        var found: [InputRecord] = []
        for columns in Array(rows.keys) {
            let given = columns.split(separator: "\u{1f}").map { column in
                input.values.first { $0.name.lowercased() == column }?.value
            }
            guard !given.contains(nil) else { continue }
            let values = given.map { $0! }
            let match = Self.matchText(values)
            guard var groups = rows[columns]?[match] else { continue }
            if let exact = groups.removeValue(forKey: Self.exactText(values)) { found += exact }
            for (text, group) in groups where try isSatisfied(group[0]) {
                found += group
                groups[text] = nil
            }
            rows[columns]?[match] = groups.isEmpty ? nil : groups
            if rows[columns]?.isEmpty == true { rows[columns] = nil }
        }
        return found
    }

    /// The text values are matched by (`matchText(_:)` of each, joined).
    static func matchText(_ values: [FieldValue]) -> String {
        values.map(Self.matchText).joined(separator: "\u{1f}")
    }

    /// The values' texts as given, joined: what an exact match compares.
    static func exactText(_ values: [FieldValue]) -> String {
        values.map { RecordKey.text(of: $0) }.joined(separator: "\u{1f}")
    }

    /// The text a value is matched by: a number by its value (the `5` of a
    /// CSV line, `5`, `5.0` and `"5.00"` alike; a whole one exactly, past
    /// what a double holds); a uuid by its digits (hyphens and braces or
    /// not, any case); other text without case and trailing spaces (a
    /// case-blind key, a `char(n)`). Matching more than the database's
    /// equality costs a look (`take`); matching less left rows to rounds of tries.
    static func matchText(_ value: FieldValue) -> String {
        switch value {
        case .int(let number): return "#\(number)"
        case .double(let number): return Self.numberText(number)
        case .text(let text):
            let trimmed = text.trimmingSpaces()
            if let number = Int64(trimmed) { return "#\(number)" }
            if let number = Double(trimmed), number.isFinite { return Self.numberText(number) }
            let lowered = trimmed.lowercased()
            let digits = lowered.filter { $0 != "-" && $0 != "{" && $0 != "}" }
            if digits.count == 32, digits.allSatisfy(\.isHexDigit) { return "u" + digits }
            return lowered
        default: return RecordKey.text(of: value).lowercased()
        }
    }

    private static func numberText(_ number: Double) -> String {
        if number == number.rounded(), let whole = Int64(exactly: number) { return "#\(whole)" }
        return "#\(number)"
    }

    /// Every row still waiting, taken out, in input order.
    mutating func takeAll() -> [InputRecord] {
        defer { rows = [:] }
        return rows.values.flatMap { $0.values.flatMap { $0.values.joined() } }.sorted { $0.line < $1.line }
    }
}
