import CLibPQ
import FormBasics

/// libpq, opened on first use rather than linked (docs/binary.md): a command
/// that never reaches PostgreSQL does not load it and its dependency chain.
enum PostgresLibrary {
    /// Opens libpq, once.
    ///
    /// - throws: `MissingLibraryError` naming the Debian package, when the
    ///   library cannot be loaded.
    static func load() throws {
        if let reason = formstore_pq_load() {
            throw MissingLibraryError(library: "libpq", purpose: "a PostgreSQL database", package: "libpq5",
                                      reason: String(cString: reason))
        }
    }
}
