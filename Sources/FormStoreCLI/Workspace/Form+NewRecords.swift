import FormCore

extension Form {
    /// Whether a new record can be given anything: some field holding a value
    /// is not read-only, or is a key, which a new record may be given (a
    /// table of only an `INTEGER PRIMARY KEY` takes rows numbered by SQLite,
    /// or by the person). A view without `INSTEAD OF` triggers takes none, and
    /// `new` and the web's new-record page say so of the form, not of its first field.
    var takesNewRecords: Bool {
        fields.contains { $0.holdsValue && (!$0.isReadOnly || primaryKey.contains($0.key)) }
    }
}
