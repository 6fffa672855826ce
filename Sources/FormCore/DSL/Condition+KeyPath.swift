/// Conditions written with key paths, so a renamed property is a compile
/// error rather than a condition that never holds.
///
/// ```swift
/// Field("Severity", \Ticket.severity).hidden(when: .notEquals(\Ticket.status, Ticket.Status.open))
/// ```
///
/// The key is the property's coding key, found as fields find theirs. A key
/// path whose coding key cannot be found is kept as written (`\Ticket.x`),
/// which names no field: the form's definition check reports it.
extension Condition {
    public static func equals<Model: Codable, Value: Codable>(_ keyPath: KeyPath<Model, Value>, _ value: Value) -> Condition {
        .equals(key(keyPath), fieldValue(value))
    }

    public static func notEquals<Model: Codable, Value: Codable>(_ keyPath: KeyPath<Model, Value>, _ value: Value) -> Condition {
        .notEquals(key(keyPath), fieldValue(value))
    }

    public static func isEmpty<Model: Codable, Value: Codable>(_ keyPath: KeyPath<Model, Value>) -> Condition {
        .isEmpty(key(keyPath))
    }

    public static func isNotEmpty<Model: Codable, Value: Codable>(_ keyPath: KeyPath<Model, Value>) -> Condition {
        .isNotEmpty(key(keyPath))
    }

    private static func key<Model: Codable, Value: Codable>(_ keyPath: KeyPath<Model, Value>) -> String {
        (try? KeyPathResolver.key(for: keyPath).get()) ?? String(describing: keyPath)
    }

    /// The value as the model holds it (an enum as its raw value, `nil` as `.null`).
    private static func fieldValue<Value: Encodable>(_ value: Value) -> FieldValue {
        ((try? ModelCoder.encodeValue(value)) ?? nil) ?? .null
    }
}
