/// Reopening an edited document with the reasons it was not saved at the top,
/// the person's text kept as they left it (as `kubectl edit` does).
extension EditorDocument {
    static let notSavedHeader = "# Not saved: fix the errors below, then save and close the editor again."

    /// `edited` with `errors` as comments at the top, replacing those of an
    /// earlier round.
    static func reopen(_ edited: String, errors: [String]) -> String {
        let body = withoutErrorBlock(edited)
        var block = notSavedHeader + "\n"
        for error in errors { block += "#   \(oneLine(error))\n" }
        block += "#\n"
        return block + body
    }

    /// `edited` with the lines it could not read at the top; their numbers are
    /// those of the reopened document.
    static func reopen(_ edited: String, problems: [InputError]) -> String {
        let body = withoutErrorBlock(edited)
        let blockLines = problems.count + 2
        let removed = lineCount(edited) - lineCount(body)
        let moved = problems.map { InputError(line: $0.line - removed + blockLines, message: $0.message) }
        return reopen(body, errors: moved.map(\.description))
    }

    private static func withoutErrorBlock(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        guard lines.first == Substring(notSavedHeader) else { return text }
        lines = lines.dropFirst()
        while let line = lines.first, line.hasPrefix("#   ") { lines = lines.dropFirst() }
        if lines.first == "#" { lines = lines.dropFirst() }
        return lines.joined(separator: "\n")
    }

    private static func lineCount(_ text: String) -> Int {
        text.utf8.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }
}

extension EditorDocument {
    /// `text` with the lines at `numbers` (from 1) emptied: read, they give nothing.
    static func blankingLines(_ numbers: [Int], of text: String) -> String {
        guard !numbers.isEmpty else { return text }
        let blank = Set(numbers)
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .map { blank.contains($0.offset + 1) ? "" : String($0.element) }.joined(separator: "\n")
    }
}
