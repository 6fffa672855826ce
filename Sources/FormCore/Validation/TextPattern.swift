import Foundation
import Synchronization

/// Whole-text regular-expression matching for `Rule.pattern` and the kinds' checks.
enum TextPattern {
    static let email = #"^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$"#
    static let state = #"^[A-Z]{2}$"#
    static let zip = #"^[0-9]{5}$"#
    static let phone = #"^[0-9]{10}$"#

    /// Whether the whole of `text` matches; `nil` when `pattern` is not a valid expression.
    static func matches(_ pattern: String, _ text: String) -> Bool? {
        guard let regex = compiled(pattern) else { return nil }
        let range = NSRange(text.startIndex..., in: text)
        guard let match = regex.firstMatch(in: text, options: [.anchored], range: range) else { return false }
        return match.range == range
    }

    /// Expressions compiled once each: compiling costs far more than matching
    /// (an import checks every row's email). The patterns come from form
    /// definitions, so the cache stays small. NSRegularExpression is immutable
    /// and safe to share between threads.
    private static let cache = Mutex<[String: NSRegularExpression?]>([:])

    private static func compiled(_ pattern: String) -> NSRegularExpression? {
        if let known = cache.withLock({ $0[pattern] }) { return known }
        let regex = try? NSRegularExpression(pattern: pattern)
        cache.withLock { $0[pattern] = regex }
        return regex
    }

    /// Why `pattern` is not a valid regular expression, or `nil` when it is.
    static func problem(in pattern: String) -> String? {
        do {
            _ = try NSRegularExpression(pattern: pattern)
            return nil
        } catch {
            return "invalid regular expression \(quoted(pattern))"
        }
    }

    static func quoted(_ s: String) -> String { "\"\(s)\"" }
}
