extension Unicode.Scalar {
    /// Foundation's `CharacterSet.whitespaces`: a tab or a space separator (Zs).
    public var isSpaceOrTab: Bool {
        // The only ASCII space separator is the space: no property looked up for typed ASCII.
        if value < 0x80 { return value == 0x09 || value == 0x20 }
        return properties.generalCategory == .spaceSeparator
    }

    /// Foundation's `CharacterSet.whitespacesAndNewlines`: also line feeds,
    /// carriage returns, U+0085 and the line and paragraph separators.
    public var isSpaceOrNewline: Bool {
        isSpaceOrTab || (0x0A...0x0D).contains(value) || value == 0x85 || value == 0x2028 || value == 0x2029
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs
    /// (what `trimmingCharacters(in: .whitespaces)` gave).
    public func trimmingSpaces() -> String { trimmedText(String(self)) { $0.isSpaceOrTab } }

    /// The text without leading and trailing white space and line breaks
    /// (what `trimmingCharacters(in: .whitespacesAndNewlines)` gave).
    public func trimmingSpacesAndNewlines() -> String { trimmedText(String(self)) { $0.isSpaceOrNewline } }

    /// Whether two names are equal ignoring case (SQL identifiers, header names).
    public func equalsIgnoringCase<Other: StringProtocol>(_ other: Other) -> Bool {
        lowercased() == other.lowercased()
    }
}

// `String` and `Substring` trim through their own concrete views: the generic
// `StringProtocol` ones make the runtime build their types' metadata on first
// use, about 0.4 M instructions of a command's start (docs/binary.md).
extension String {
    public func trimmingSpaces() -> String { trimmedText(self) { $0.isSpaceOrTab } }
    public func trimmingSpacesAndNewlines() -> String { trimmedText(self) { $0.isSpaceOrNewline } }
}

extension Substring {
    public func trimmingSpaces() -> String { trimmedText(String(self)) { $0.isSpaceOrTab } }
    public func trimmingSpacesAndNewlines() -> String { trimmedText(String(self)) { $0.isSpaceOrNewline } }
}

/// `text` without the scalars `drop` matches at either end.
private func trimmedText(_ text: String, _ drop: (Unicode.Scalar) -> Bool) -> String {
    let scalars = text.unicodeScalars
    guard let first = scalars.firstIndex(where: { !drop($0) }) else { return "" }
    let last = scalars.lastIndex(where: { !drop($0) })!
    if first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex { return text }
    return String(scalars[first...last])
}
