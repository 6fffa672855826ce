import FoundationEssentials
import FormCore
import FormStorage
import FormBasics

/// A record's entity tag: a digest of every stored value (secure ones too,
/// the version column's, and its groups' rows), so any change by anyone gives another tag.
///
/// Keyed by a secret of the server's run (`KeyedDigest`): the tag goes to
/// anyone who may read the record, and an unkeyed digest let a reader who
/// sees every other value try passwords against it offline. A restarted server gives other tags, which a write meets as stale.
enum RecordETag {
    static func of(_ record: StoredRecord) -> String {
        var parts: [String] = []
        for key in record.values.keys.sorted() {
            parts += [key, String(describing: record.values[key]!)]
        }
        // A group's rows too: a row changed by anyone changes the record's tag.
        for group in record.groups.keys.sorted() {
            parts.append(group)
            for row in record.groups[group]! {
                for key in row.keys.sorted() { parts += [key, String(describing: row[key]!)] }
                parts.append("\u{1e}")
            }
        }
        parts.append(record.version.map(String.init) ?? "-")
        return "\"" + KeyedDigest.hex(parts, length: 16) + "\""
    }
}
