import FormCore

extension Form {
    /// Whether a new record can be given anything: some field holding a value
    /// is not read-only. A view without `INSTEAD OF` triggers takes none, and
    /// `new` and the web's new-record page say so of the form, not of its first field.
    var takesNewRecords: Bool {
        fields.contains { $0.holdsValue && !$0.isReadOnly }
    }
}
