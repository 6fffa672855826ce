import CLibPQ
import FormBasics
import Glibc

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
        _ = connectTimeout
    }

    /// libpq waits for a server that accepts a connection and never answers
    /// for ever: unless `PGCONNECT_TIMEOUT` is set (or the URL's
    /// `connect_timeout`, which wins), a connection gives up after this many
    /// seconds. Set once, before the first connection, so that no libpq call
    /// reads the environment while it is written.
    static let connectTimeoutSeconds = 10
    private static let connectTimeout: Void = { setenv("PGCONNECT_TIMEOUT", String(connectTimeoutSeconds), 0) }()
}
