/// A shared library FormStore opens only when a command needs it (libpq for a
/// PostgreSQL database, libmicrohttpd for `serve`; docs/binary.md) could not
/// be loaded: most often it is not installed.
///
/// ```swift
/// throw MissingLibraryError(library: "libpq", purpose: "a PostgreSQL database",
///                           package: "libpq5", reason: "libpq.so.5: cannot open shared object file")
/// ```
public struct MissingLibraryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The library's name, e.g. `libpq`.
    public var library: String
    /// What needs it, e.g. `a PostgreSQL database`.
    public var purpose: String
    /// The Debian package that installs it, e.g. `libpq5`.
    public var package: String
    /// The dynamic loader's reason.
    public var reason: String

    public init(library: String, purpose: String, package: String, reason: String) {
        self.library = library
        self.purpose = purpose
        self.package = package
        self.reason = reason
    }

    public var description: String {
        "\(purpose) needs \(library), which cannot be loaded (install the Debian package \(package)): \(reason)"
    }
}
