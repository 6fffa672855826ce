import FormCore

/// The records the JSON API sent, by form and `ETag`, so a `PATCH` naming
/// the state its caller read (`FormStore-Base: TAG`) is judged against it:
/// a field or row changed since by someone else is a 409 with base, mine and
/// theirs, instead of a 412 for the whole record. Used behind `WebApp.locked`;
/// a bounded number is kept (the oldest go first), and a restart forgets
/// them (a tag no longer known is a 412: read the record again).
final class ServedRecords {
    static let limit = 1024

    private var records: [String: StoredRecord] = [:]
    private var order: [String] = []

    private static func slot(_ form: String, _ tag: String) -> String { "\(form)\u{0}\(tag)" }

    /// Keeps `record` as sent under its tag; returns the tag.
    @discardableResult
    func keep(_ record: StoredRecord, form: String) -> String {
        let tag = RecordETag.of(record)
        let slot = Self.slot(form, tag)
        if records.updateValue(record, forKey: slot) == nil { order.append(slot) }
        if order.count > Self.limit { records[order.removeFirst()] = nil }
        return tag
    }

    /// The record sent under `tag` for a record of `form` with `key`.
    func record(form: String, tag: String, key: RecordKey) -> StoredRecord? {
        records[Self.slot(form, tag)].flatMap { $0.key == key ? $0 : nil }
    }
}
