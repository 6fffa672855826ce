import FormCore

/// The names a JSON reader is told to expect (`RecordReader.expect(names:)`),
/// which its records are laid out by (`InputValues(names:)`). A key is
/// matched in place, with no string made of it: first against the name after
/// the one matched last (rows name their values in one order), then looked up.
/// A final class: as a struct of three arrays, the reader's copy of it for
/// each line retained and released each of them.
final class ExpectedNames: Sendable {
    let names: [String]
    /// Each name's UTF-8, what a key is compared with.
    private let utf8: [[UInt8]]
    private let positions: [String: Int]

    init(_ names: [String]) {
        self.names = names
        utf8 = names.map { Array($0.utf8) }
        positions = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The position of the key `reader` just read in `names`, looked for
    /// first just after `last`; nil when it is none of them.
    func position(of key: JSONReader.Key, in reader: JSONReader, after last: Int) -> Int? {
        let next = last + 1
        if next < names.count, reader.key(key, is: utf8[next]) { return next }
        return positions[reader.string(of: key)]
    }
}
