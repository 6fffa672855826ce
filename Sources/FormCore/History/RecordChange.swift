public import FoundationEssentials

/// One save of a record as its history keeps it: when, by whom, through what,
/// and each field it changed.
public struct RecordChange: Sendable, Hashable, Codable {
    /// Identifies the change (`formstore revert --change ID`); later changes have larger ids.
    public var id: Int64
    public var form: String
    public var key: RecordKey
    public var changedAt: Date
    public var attribution: ChangeAttribution
    /// The fields the save changed, in form order.
    public var fields: [FieldChange]

    public init(id: Int64, form: String, key: RecordKey, changedAt: Date, attribution: ChangeAttribution,
                fields: [FieldChange]) {
        self.id = id
        self.form = form
        self.key = key
        self.changedAt = changedAt
        self.attribution = attribution
        self.fields = fields
    }
}

/// A field one save changed: its model values before and after, read back
/// from the stored values the history kept. A secure field has neither: the
/// history says only that it changed.
public struct FieldChange: Sendable, Hashable, Codable {
    public var field: String
    public var old: FieldValue?
    public var new: FieldValue?
    public var isSecure: Bool
    /// `old` as the column held it (a bool's `2`, a date's text, `'12'` as
    /// text in an untyped column), as SQLite's storage class reads into a value
    /// (INTEGER `.int`, REAL `.double`, TEXT `.text`, BLOB `.blob`): what a
    /// revert writes back (`FormSession.set(_:value:storedAs:)`). Not part
    /// of the JSON form, which shows model values.
    public var storedOld: FieldValue?

    private enum CodingKeys: String, CodingKey {
        case field, old, new, isSecure
    }

    /// Equal when they change the same field between the same model values:
    /// how a backend stored them (`storedOld`) does not enter, as in the JSON form.
    public static func == (a: FieldChange, b: FieldChange) -> Bool {
        a.field == b.field && a.old == b.old && a.new == b.new && a.isSecure == b.isSecure
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(field)
        hasher.combine(old)
        hasher.combine(new)
        hasher.combine(isSecure)
    }

    public init(field: String, old: FieldValue?, new: FieldValue?, isSecure: Bool = false, storedOld: FieldValue? = nil) {
        self.field = field
        self.old = old
        self.new = new
        self.isSecure = isSecure
        self.storedOld = storedOld
    }
}
