import FormBasics
import FormCore

/// What a page's `_base` holds for a secure field in place of its value: a
/// digest keyed by a secret of the process, so a post that types a new
/// password finds another writer's change made since the page was drawn (a
/// conflict, as for any field) where it wrote over it unasked, and the page
/// holds nothing to try passwords against offline, as an unkeyed digest of a
/// short secret would. Pages drawn before a server restarted meet a typed
/// secure field as changed by someone else: the person types it again.
enum SecureFieldDigest {
    private static let secret: [UInt8] = {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }()

    /// The digest of the field with `key` of `session`'s record holding
    /// `value`: of the form and the record too, so records holding the same
    /// password show different digests, and setting one's cannot test another's.
    static func of(_ key: String, _ value: FieldValue, in session: FormSession) -> String {
        var bytes = secret
        for part in [session.form.name, session.key?.description ?? "", key, String(describing: value)] {
            bytes += part.utf8
            bytes.append(0xff)
        }
        return String(SHA256.hexDigest(bytes).prefix(32))
    }
}
