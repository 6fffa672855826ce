#if canImport(Glibc)
import Glibc
#endif

extension String {
    /// Whether the two strings hold the same UTF-8 bytes: stricter than `==`,
    /// which calls a composed `é` equal to `e` and a combining accent.
    ///
    /// ```swift
    /// "é".hasSameUTF8(as: "e\u{301}")   // false, though "é" == "e\u{301}"
    /// ```
    ///
    /// Compared by `memcmp` over the strings' contiguous storage:
    /// `utf8.elementsEqual` walked both views byte by byte, about a thousand
    /// instructions per value on an import's every text (issue 14).
    public func hasSameUTF8(as other: String) -> Bool {
        let count = utf8.count
        guard count == other.utf8.count else { return false }
        guard count > 0 else { return true }
        let same = utf8.withContiguousStorageIfAvailable { x in
            other.utf8.withContiguousStorageIfAvailable { y in memcmp(x.baseAddress!, y.baseAddress!, count) == 0 }
        }
        // A string without contiguous UTF-8 (bridged, on other platforms) is walked.
        return (same ?? nil) ?? utf8.elementsEqual(other.utf8)
    }
}
