import FoundationEssentials

extension SQLFunction {
    /// `formstore_instant(value)`: the instant a stored date is, in
    /// milliseconds since 1970 UTC, read as `DateStorageFormat.parse(_:)`
    /// reads it for a field; NULL for a value that is no date. `QuerySQL`
    /// compares and sorts dates by it, so `--where` and `--sort` read every
    /// form the fields read (`2024-3-5`, `05.03.2024 10:00 +0100`, epochs,
    /// Julian days, `20240102`), and no other.
    static let instant = SQLFunction(name: "formstore_instant") { value in
        guard let date = DateStorageFormat.parse(value) else { return .null }
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        return Int64(exactly: milliseconds).map(DatabaseValue.integer) ?? .real(milliseconds)
    }
}

extension Connection {
    /// The functions every connection FormStore opens may call.
    static let formStoreFunctions: [SQLFunction] = [.instant]
}
