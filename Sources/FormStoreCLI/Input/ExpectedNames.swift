import FormCore

/// The names a JSON reader is told to expect (`RecordReader.expect(names:)`),
/// which its records are laid out by (`InputValues(names:)`). A key is
/// matched in place, with no string made of it: first against the name after
/// the one matched last (rows name their values in one order), then looked up.
/// A final class: as a struct of three arrays, the reader's copy of it for
/// each line retained and released each of them.
///
/// A name that matches none exactly matches the one name it equals ignoring
/// case, as SQLite matches a column's name: a header `ID` or `Name` written
/// by a spreadsheet is the column `id` or `name`. Two names that differ only
/// in case are matched exactly only.
final class ExpectedNames: Sendable {
    let names: [String]
    /// Each name's UTF-8, what a key is compared with.
    private let utf8: [[UInt8]]
    private let positions: [String: Int]
    /// Positions by lowercased name, of the names no other folds to.
    private let folded: [String: Int]

    init(_ names: [String]) {
        self.names = names
        utf8 = names.map { Array($0.utf8) }
        positions = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var folded: [String: Int?] = [:]
        for (position, name) in names.enumerated() {
            let lowered = name.lowercased()
            folded[lowered] = folded[lowered] == nil ? position : .some(nil)
        }
        self.folded = folded.compactMapValues { $0 }
    }

    /// The position of the key `reader` just read in `names`, looked for
    /// first just after `last`; nil when it is none of them.
    func position(of key: JSONReader.Key, in reader: JSONReader, after last: Int) -> Int? {
        let next = last + 1
        if next < names.count, reader.key(key, is: utf8[next]) { return next }
        return position(of: reader.string(of: key))
    }

    /// The position of `name` in `names`, or of the one name it equals ignoring case.
    func position(of name: String) -> Int? { positions[name] ?? folded[name.lowercased()] }
}
