import FoundationEssentials
import Glibc
import Synchronization

/// Whole-text regular-expression matching for `Rule.pattern` and the kinds' checks.
///
/// Patterns come from specs, and a spec may come from someone else: a pattern
/// such as `(a+)+$` backtracks exponentially in a backtracking engine (ICU's,
/// Swift `Regex`'s: 0.6 s for 40 characters, hours for an import). So a spec
/// whose pattern nests a repeat inside a repeat is refused when it loads
/// (`problem(in:)`), and matching runs on the C library's POSIX engine, which
/// does not backtrack: it simulates the automaton over the text once, so
/// `(a|aa)+$` against 40 `a`s and a `b` is decided at once (docs/binary.md).
/// The pattern is written in the usual (ICU, JavaScript) syntax and turned
/// into POSIX extended syntax (`POSIXPattern`); what has no POSIX form
/// (look-around, back-references) is an invalid pattern.
enum TextPattern {
    static let email = #"^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$"#
    static let state = #"^[A-Z]{2}$"#
    static let zip = #"^[0-9]{5}$"#
    static let phone = #"^[0-9]{10}$"#

    /// What matching a text found.
    enum Outcome: Equatable {
        case matched
        case notMatched
        /// The pattern is not a valid expression.
        case invalid
        /// The engine ran out of memory for its states before it could decide.
        case overBudget
    }

    /// Whether the whole of `text` matches; `nil` when `pattern` is not a valid
    /// expression; `false` too when the engine gave up.
    static func matches(_ pattern: String, _ text: String) -> Bool? {
        switch match(pattern, text) {
        case .matched: return true
        case .notMatched, .overBudget: return false
        case .invalid: return nil
        }
    }

    /// Matches the whole of `text`.
    static func match(_ pattern: String, _ text: String) -> Outcome {
        guard let regex = compiled(pattern) else { return .invalid }
        return regex.wholeMatch(text)
    }

    /// Expressions compiled once each: compiling costs far more than matching
    /// (an import checks every row's email). The patterns come from form
    /// definitions, so the cache stays small. glibc's `regexec` locks a
    /// compiled expression itself, so one may be shared between threads.
    private static let cache = Mutex<[String: CompiledPattern?]>([:])

    private static func compiled(_ pattern: String) -> CompiledPattern? {
        if let known = cache.withLock({ $0[pattern] }) { return known }
        let regex = POSIXPattern.translated(pattern).flatMap(CompiledPattern.init)
        cache.withLock { $0[pattern] = regex }
        return regex
    }

    /// Why `pattern` cannot be used, or `nil` when it can: not a valid
    /// regular expression, or one that nests repeats.
    static func problem(in pattern: String) -> String? {
        guard POSIXPattern.translated(pattern).flatMap(CompiledPattern.init) != nil else {
            return "invalid regular expression \(quoted(pattern))"
        }
        if nestsRepeats(pattern) {
            return "the pattern \(quoted(pattern)) repeats a group that itself repeats, which can take exponential "
                + "time to check; rewrite it without the nested repeat (for example \"a+\" instead of \"(a+)+\")"
        }
        return nil
    }

    /// Whether a group holding an unbounded repeat (`*`, `+`, `{n,}`) is itself
    /// repeated without bound: the shape of catastrophic backtracking
    /// (`(a+)+`, `(x*y?)*`, `(?:\d+,?)+`). Escapes and bracket expressions are skipped.
    static func nestsRepeats(_ pattern: String) -> Bool {
        let chars = Array(pattern)
        var groups: [Bool] = []          // per open group: does it hold an unbounded repeat?
        var lastClosedHeldRepeat = false // the atom just before a quantifier was a group that did
        var i = 0
        func unboundedQuantifier(at index: Int) -> (Bool, Int)? {
            guard index < chars.count else { return nil }
            switch chars[index] {
            case "*", "+": return (true, index + 1)
            case "?": return (false, index + 1)
            case "{":
                guard let close = chars[index...].firstIndex(of: "}") else { return nil }
                let body = String(chars[(index + 1)..<close])
                let parts = body.split(separator: ",", omittingEmptySubsequences: false)
                guard !parts.isEmpty, parts.allSatisfy({ $0.allSatisfy(\.isNumber) }), !parts[0].isEmpty else { return nil }
                return (parts.count == 2 && parts[1].isEmpty, close + 1)
            default: return nil
            }
        }
        while i < chars.count {
            let c = chars[i]
            var atomWasGroupWithRepeat = false
            switch c {
            case "\\":
                i += 2
            case "[":
                i += 1
                if i < chars.count, chars[i] == "^" { i += 1 }
                if i < chars.count, chars[i] == "]" { i += 1 }
                while i < chars.count, chars[i] != "]" { i += chars[i] == "\\" ? 2 : 1 }
                i += 1
            case "(":
                groups.append(false)
                i += 1
                if i < chars.count, chars[i] == "?" { i += 1 } // (?: (?= (?<name> ...: not a quantifier
                continue
            case ")":
                atomWasGroupWithRepeat = groups.popLast() ?? false
                i += 1
            default:
                i += 1
            }
            lastClosedHeldRepeat = atomWasGroupWithRepeat
            if let (unbounded, next) = unboundedQuantifier(at: i) {
                if unbounded && lastClosedHeldRepeat { return true }
                if unbounded || lastClosedHeldRepeat, !groups.isEmpty {
                    groups[groups.count - 1] = groups[groups.count - 1] || unbounded || lastClosedHeldRepeat
                }
                i = next
                if i < chars.count, chars[i] == "?" || chars[i] == "+" { i += 1 } // lazy or possessive
            } else if lastClosedHeldRepeat, !groups.isEmpty {
                groups[groups.count - 1] = true
            }
        }
        return false
    }

    static func quoted(_ s: String) -> String { "\"\(s)\"" }
}
