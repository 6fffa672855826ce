import FormBasics
import FormCore

/// What a page's `_base` holds for a secure field in place of its value: a
/// digest keyed by a secret of the process (`KeyedDigest`), so a post that types a new
/// password finds another writer's change made since the page was drawn (a
/// conflict, as for any field) where it wrote over it unasked, and the page
/// holds nothing to try passwords against offline, as an unkeyed digest of a
/// short secret would. Pages drawn before a server restarted meet a typed
/// secure field as changed by someone else: the person types it again.
enum SecureFieldDigest {
    /// The digest of the field with `key` of `session`'s record holding
    /// `value`: of the form and the record too, so records holding the same
    /// password show different digests, and setting one's cannot test another's.
    static func of(_ key: String, _ value: FieldValue, in session: FormSession) -> String {
        KeyedDigest.hex([session.form.name, session.key?.description ?? "", key, String(describing: value)], length: 32)
    }

    /// The digest of a stored row's secure cell (`lines[11].pin`), by the row's key.
    static func ofCell(_ group: String, _ row: RecordKey, _ field: String, _ value: FieldValue?, in session: FormSession) -> String {
        of("\(group)[\(row.description)].\(field)", value ?? .null, in: session)
    }
}
