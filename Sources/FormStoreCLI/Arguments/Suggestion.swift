/// "Did you mean …?": the candidate closest to what was typed, if any is close.
enum Suggestion {
    static func closest(to typed: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(typed, $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        // Close means a typo or two, never most of the word.
        let limit = max(1, min(2, typed.count / 2))
        if best.1 <= limit { return best.0 }
        return candidates.first { $0.hasPrefix(typed) && typed.count >= 2 }
    }

    /// Levenshtein distance over characters.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1,
                                 previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
