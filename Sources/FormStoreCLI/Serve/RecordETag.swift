import FoundationEssentials
import FormCore
import FormStorage
import FormBasics

/// A record's entity tag: a digest of every stored value (secure ones too,
/// the version column's, and its groups' rows), so any change by anyone gives another tag.
///
/// Keyed by a secret of the server's run (SHA-256 over the secret and the
/// values): the tag goes to anyone who may read the record, and an unkeyed
/// digest let a reader who sees every other value try passwords against it
/// offline. A restarted server gives other tags, which a write meets as stale.
enum RecordETag {
    private static let secret = Array(WebVisitors.randomToken().utf8)

    static func of(_ record: StoredRecord) -> String {
        var bytes = secret
        func mix(_ text: String) {
            bytes.append(contentsOf: text.utf8)
            bytes.append(0xff)
        }
        for key in record.values.keys.sorted() {
            mix(key)
            mix(String(describing: record.values[key]!))
        }
        // A group's rows too: a row changed by anyone changes the record's tag.
        for group in record.groups.keys.sorted() {
            mix(group)
            for row in record.groups[group]! {
                for key in row.keys.sorted() {
                    mix(key)
                    mix(String(describing: row[key]!))
                }
                mix("\u{1e}")
            }
        }
        mix(record.version.map(String.init) ?? "-")
        return "\"" + String(SHA256.hexDigest(bytes).prefix(16)) + "\""
    }
}
