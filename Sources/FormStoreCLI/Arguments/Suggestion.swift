/// "Did you mean …?": the candidate closest to what was typed, if any is close.
enum Suggestion {
    static func closest(to typed: String, among candidates: [String]) -> String? {
        // Case is no typo: `NAME` is `name`'s, at no distance.
        let lowered = typed.lowercased()
        let scored = candidates.map { ($0, distance(lowered, $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        // Close means a typo or two, never most of the word.
        let limit = max(1, min(2, typed.count / 2))
        if best.1 <= limit { return best.0 }
        return candidates.first { $0.hasPrefix(typed) && typed.count >= 2 }
    }

    /// Edit distance over characters, counting a swap of neighbours as one
    /// edit (optimal string alignment): `lsit` is one typo from `list`.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
