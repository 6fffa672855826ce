import FormCore

/// One input record's values by name, in the order they arrived: what a
/// reader gives and an import walks once, value by value. A dictionary made
/// per row hashed every name (issue 14); a record has a few values, so a
/// name is found by a scan. Names are unique: the readers refuse a repeated
/// JSON key or CSV column.
///
/// ```swift
/// var values: InputValues = ["id": 1]
/// values["name"] = "Ann"
/// for (name, value) in values { print(name, value) }   // id 1, name Ann
/// ```
struct InputValues: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    private var names: [String] = []
    private var values: [FieldValue] = []

    init() {}

    init(dictionaryLiteral elements: (String, FieldValue)...) {
        for (name, value) in elements { self[name] = value }
    }

    init(minimumCapacity: Int) {
        names.reserveCapacity(minimumCapacity)
        values.reserveCapacity(minimumCapacity)
    }

    var count: Int { names.count }
    var isEmpty: Bool { names.isEmpty }

    /// Adds a value under a name the record does not hold yet.
    mutating func append(_ name: String, _ value: FieldValue) {
        names.append(name)
        values.append(value)
    }

    /// The value of `name`; setting `nil` removes it, setting a new name appends it.
    subscript(name: String) -> FieldValue? {
        get { names.firstIndex(of: name).map { values[$0] } }
        set {
            switch (names.firstIndex(of: name), newValue) {
            case (let index?, let value?): values[index] = value
            case (let index?, nil):
                names.remove(at: index)
                values.remove(at: index)
            case (nil, let value?): append(name, value)
            case (nil, nil): break
            }
        }
    }

    /// The values keyed by name, for code that takes a dictionary (a session's `apply(values:)`).
    var dictionary: [String: FieldValue] {
        Dictionary(zip(names, values), uniquingKeysWith: { first, _ in first })
    }

    func makeIterator() -> Zip2Sequence<[String], [FieldValue]>.Iterator {
        zip(names, values).makeIterator()
    }
}

extension InputValues: Hashable {
    /// Records are equal when they hold the same values by name, whatever the order they arrived in.
    static func == (lhs: InputValues, rhs: InputValues) -> Bool { lhs.dictionary == rhs.dictionary }
    func hash(into hasher: inout Hasher) { hasher.combine(dictionary) }
}
