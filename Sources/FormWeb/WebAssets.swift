/// The files every page links, kept in the binary: `formstore serve` runs
/// anywhere without a folder of its own, and a service serves the same bytes.
public enum WebAssets {
    /// The `Content-Security-Policy` the pages are written for: script and
    /// style from the server's own files, nothing inline, no frames.
    public static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
        + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
}
