extension String {
    /// Whether `part` occurs in the text, byte for byte in UTF-8, as SQLite
    /// itself reads a declared type (`INT`, `CHAR` … anywhere in it).
    ///
    /// Not the standard library's `contains(_:)`: its generic searcher builds
    /// its types' metadata at run time on first use, about a million
    /// instructions of every command's start that reads a table's columns
    /// (docs/binary.md).
    func containsUTF8(_ part: String) -> Bool {
        var text = self
        var part = part
        return text.withUTF8 { text in
            part.withUTF8 { part in
                guard !part.isEmpty else { return true }
                guard part.count <= text.count else { return false }
                var start = 0
                while start + part.count <= text.count {
                    var matched = 0
                    while matched < part.count && text[start + matched] == part[matched] { matched += 1 }
                    if matched == part.count { return true }
                    start += 1
                }
                return false
            }
        }
    }
}
