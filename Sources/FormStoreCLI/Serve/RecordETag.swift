import FoundationEssentials
import FormCore

/// A record's entity tag: a digest of every stored value (secure ones too,
/// the version column's, and its groups' rows), so any change by anyone gives another tag.
enum RecordETag {
    static func of(_ record: StoredRecord) -> String {
        // FNV-1a over the values in key order: stable across runs and processes, cheap per read.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ text: String) {
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
            hash ^= 0xff
            hash = hash &* 0x0000_0100_0000_01b3
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
        return "\"" + String(hash, radix: 16) + "\""
    }
}
