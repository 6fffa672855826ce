import FormBasics
public import FormCore

// The kind-less mapping between model values and stored values; `StorageCoding`
// refines it per field kind.

extension FieldValue {
    /// The kind-less model value of a stored value: INTEGER → `.int`, REAL →
    /// `.double`, TEXT → `.text`, BLOB → `.data`, NULL → `.null`.
    public init(_ databaseValue: DatabaseValue) {
        switch databaseValue {
        case .null: self = .null
        case .integer(let i): self = .int(i)
        case .real(let d): self = .double(d)
        case .text(let s): self = .text(s)
        case .blob(let d): self = .data(d)
        }
    }
}

extension DatabaseValue {
    /// The kind-less stored value of a model value: Bool → 0/1, Date → ISO-8601
    /// text in UTC, a list → JSON array text, data → BLOB.
    public init(_ fieldValue: FieldValue) {
        switch fieldValue {
        case .null: self = .null
        case .bool(let b): self = .integer(b ? 1 : 0)
        case .int(let i): self = .integer(i)
        case .double(let d): self = .real(d)
        case .text(let s): self = .text(s)
        case .date(let date): self = .text(ISO8601.dateTime(date))
        case .list(let list): self = .text(ListJSON.encode(list))
        case .data(let d): self = .blob(d)
        }
    }
}
