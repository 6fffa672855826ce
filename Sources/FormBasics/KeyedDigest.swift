/// SHA-256 over a secret made once per process and the parts given, each
/// ended by a byte no UTF-8 text holds (0xff): a digest the server may show
/// anyone (a record's tag, a secure field's on a page) without letting them
/// try guesses of the parts offline, as an unkeyed digest of a short secret
/// would. A restarted process gives other digests.
public enum KeyedDigest {
    private static let secret: [UInt8] = {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }()

    /// The first `length` hex digits of the digest of `parts`.
    public static func hex(_ parts: some Sequence<String>, length: Int) -> String {
        var bytes = secret
        for part in parts {
            bytes += part.utf8
            bytes.append(0xff)
        }
        return String(SHA256.hexDigest(bytes).prefix(length))
    }
}
