import Glibc

/// A POSIX extended expression compiled by the C library, matched against
/// whole texts in a UTF-8 locale (so `.` and `{n}` count characters, not bytes).
final class CompiledPattern: @unchecked Sendable {
    // regcomp's state, freed once; regexec locks it itself (glibc), so
    // sharing between threads is safe.
    private let regex: UnsafeMutablePointer<regex_t>

    /// A UTF-8 character type for this thread while compiling and matching,
    /// leaving the process's locale alone.
    // Created once and never changed or freed.
    nonisolated(unsafe) private static let utf8: locale_t? = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)

    /// Whether `regcomp` filled `regex` in, so `deinit` frees what it made.
    private let compiled: Bool

    /// `nil` when the C library refuses the expression. A failed init still
    /// runs `deinit` (its stored properties are all set): `regfree` of an
    /// expression `regcomp` refused freed memory it never had, and crashed.
    init?(_ posix: String) {
        let regex = UnsafeMutablePointer<regex_t>.allocate(capacity: 1)
        compiled = Self.inUTF8 { regcomp(regex, "^(" + posix + ")$", REG_EXTENDED | REG_NOSUB) } == 0
        self.regex = regex
        guard compiled else { return nil }
    }

    deinit {
        if compiled { regfree(regex) }
        regex.deallocate()
    }

    func wholeMatch(_ text: String) -> TextPattern.Outcome {
        // A C string ends at NUL: such a text is never a match of a pattern
        // that cannot name NUL either.
        if text.utf8.contains(0) { return .notMatched }
        switch Self.inUTF8({ regexec(regex, text, 0, nil, 0) }) {
        case 0: return .matched
        case Int32(_REG_NOMATCH.rawValue): return .notMatched
        default: return .overBudget // REG_ESPACE: too many states for memory
        }
    }

    private static func inUTF8<T>(_ body: () -> T) -> T {
        guard let utf8 else { return body() }
        let previous = uselocale(utf8)
        defer { uselocale(previous) }
        return body()
    }
}
