import FormCore

/// One input record's values by name: what a reader gives and an import
/// walks once, value by value. A dictionary made per row hashed every name
/// (issue 14); a record has a few values, so a name is found by a scan.
/// Names are unique: the readers refuse a repeated JSON key or CSV column.
///
/// A reader that knows the names before the rows (a CSV header, the names an
/// import expects: `RecordReader.expect(names:)`) lays every record out by
/// them (`init(names:)`): the records share one array of names, a name keeps
/// its position from row to row, and a row makes no string of a name it holds.
///
/// ```swift
/// var values: InputValues = ["id": 1]
/// values["name"] = "Ann"
/// for (name, value) in values { print(name, value) }   // id 1, name Ann
/// ```
struct InputValues: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// The names, by position: those the record was laid out by, then any it added.
    private(set) var names: [String] = []
    /// The value at each position; nil where the record holds none.
    private var values: [FieldValue?] = []
    /// A JSON number's text as written, by position, where its value may not
    /// give it back (`12.50`, `1e2`; `JSONReader.valueAndText`): what a text
    /// field takes. Empty for most records.
    private var writtenNumbers: [Int: String] = [:]
    /// Each name's position, once names are added to a record holding more
    /// than a scan finds quickly (`position(adding:)`); empty until then. A
    /// hostile line of 40 000 keys, each looked for by a scan of those before,
    /// was read in time growing with the square of its size.
    private var positions: [String: Int] = [:]
    /// The most names found by a scan.
    private static let scannedNames = 32

    init() {}

    init(dictionaryLiteral elements: (String, FieldValue)...) {
        for (name, value) in elements { self[name] = value }
    }

    /// A record laid out by `names`, holding no value yet.
    init(names: [String]) {
        self.names = names
        // Appended into reserved room: `Array(repeating:count:)` took the standard library's
        // unspecialized path, per row (as `RecordValues(layout:)` found; issue 14).
        values.reserveCapacity(names.count)
        for _ in names { values.append(nil) }
    }

    /// `positions` made from `names` (the first of a repeated name).
    private mutating func indexNames() {
        positions = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The value at `position` in `names`; setting one where there is none adds it.
    subscript(at position: Int) -> FieldValue? {
        get { values[position] }
        set { values[position] = newValue }
    }

    /// Keeps the text of the JSON number at `position` as it was written.
    mutating func keepWrittenNumber(_ text: String, at position: Int) { writtenNumbers[position] = text }

    /// The JSON number of `name` as it was written, when it may differ from its value's text.
    func writtenNumber(_ name: String) -> String? {
        guard !writtenNumbers.isEmpty, let position = position(of: name) else { return nil }
        return writtenNumbers[position]
    }

    /// The JSON number at `position` as it was written, when it may differ from its value's text.
    func writtenNumber(at position: Int) -> String? { writtenNumbers.isEmpty ? nil : writtenNumbers[position] }

    /// Whether the record holds a value at `position`: looked at in place, where
    /// `self[at: position] == nil` copied the value out first (per value of an import).
    func holdsValue(at position: Int) -> Bool {
        values.withUnsafeBufferPointer { values in
            if case .none = values[position] { return false }
            return true
        }
    }

    /// The position of `name` in `names`, whether or not the record holds a value there.
    func position(of name: String) -> Int? {
        positions.isEmpty ? names.firstIndex(of: name) : positions[name]
    }

    /// The position of `name`, added (holding no value) when `names` lacks it.
    mutating func position(adding name: String) -> Int {
        // Indexed once names are added to a record holding many: a row laid out by
        // expected names finds them by position, and never pays for the index.
        if positions.isEmpty && names.count > Self.scannedNames { indexNames() }
        if let position = position(of: name) { return position }
        names.append(name)
        values.append(nil)
        if !positions.isEmpty { positions[name] = names.count - 1 }
        return names.count - 1
    }

    /// The value of `name`; setting `nil` removes it, setting a new name appends it.
    subscript(name: String) -> FieldValue? {
        get { position(of: name).flatMap { values[$0] } }
        set {
            if let position = position(of: name) {
                values[position] = newValue
            } else if let newValue {
                self[at: position(adding: name)] = newValue
            }
        }
    }

    /// The values as a record of `layout`, when they are laid out by exactly
    /// its keys (a reader told them: `RecordReader.expect(names:)`), with
    /// nothing copied; nil otherwise.
    func laidOut(by layout: RecordLayout) -> RecordValues? {
        names == layout.keys ? RecordValues(layout: layout, slots: values) : nil
    }

    /// The values keyed by name, for code that takes a dictionary (a session's `apply(values:)`).
    var dictionary: [String: FieldValue] {
        var result: [String: FieldValue] = [:]
        for (name, value) in self { result[name] = value }
        return result
    }

    /// The values with their names, in position order.
    struct Iterator: IteratorProtocol {
        fileprivate let values: InputValues
        fileprivate var position = 0

        mutating func next() -> (name: String, value: FieldValue)? {
            while position < values.names.count {
                defer { position += 1 }
                if let value = values.values[position] { return (values.names[position], value) }
            }
            return nil
        }
    }

    func makeIterator() -> Iterator { Iterator(values: self) }
}

extension InputValues: Hashable {
    /// Records are equal when they hold the same values by name, whatever the order they arrived in.
    static func == (lhs: InputValues, rhs: InputValues) -> Bool { lhs.dictionary == rhs.dictionary }
    func hash(into hasher: inout Hasher) { hasher.combine(dictionary) }
}
