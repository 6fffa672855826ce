extension Unicode.Scalar {
    /// Foundation's `CharacterSet.whitespaces`: a tab or a space separator (Zs).
    public var isSpaceOrTab: Bool {
        value == 0x09 || properties.generalCategory == .spaceSeparator
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
    public func trimmingSpaces() -> String { trimming(\.isSpaceOrTab) }

    /// The text without leading and trailing white space and line breaks
    /// (what `trimmingCharacters(in: .whitespacesAndNewlines)` gave).
    public func trimmingSpacesAndNewlines() -> String { trimming(\.isSpaceOrNewline) }

    private func trimming(_ drop: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !drop($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !drop($0) })!
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    /// Whether two names are equal ignoring case (SQL identifiers, header names).
    public func equalsIgnoringCase<Other: StringProtocol>(_ other: Other) -> Bool {
        lowercased() == other.lowercased()
    }
}
