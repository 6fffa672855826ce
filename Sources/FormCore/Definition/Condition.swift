/// A test over the form's current values (and whether it is being edited),
/// used to hide or disable a field.
///
/// ```swift
/// // Shown only while the profile is being edited:
/// Field(action: "delete", "Delete").hidden(when: .not(.editing))
/// ```
public indirect enum Condition: Sendable, Hashable {
    case equals(String, FieldValue)
    case notEquals(String, FieldValue)
    case isEmpty(String)
    case isNotEmpty(String)
    /// True while an `edit`-mode session is between `beginEditing()` and save or cancel.
    case editing
    case not(Condition)
    case all([Condition])
    case any([Condition])

    /// Evaluates the condition; `value(key)` returns a field's current model value.
    public func evaluate(editing isEditing: Bool, value: (String) -> FieldValue) -> Bool {
        switch self {
        case .equals(let key, let expected): return value(key) == expected
        case .notEquals(let key, let expected): return value(key) != expected
        case .isEmpty(let key): return value(key).isEmpty
        case .isNotEmpty(let key): return !value(key).isEmpty
        case .editing: return isEditing
        case .not(let inner): return !inner.evaluate(editing: isEditing, value: value)
        case .all(let list): return list.allSatisfy { $0.evaluate(editing: isEditing, value: value) }
        case .any(let list): return list.contains { $0.evaluate(editing: isEditing, value: value) }
        }
    }

    /// The field keys this condition reads.
    public var referencedKeys: [String] {
        switch self {
        case .equals(let k, _), .notEquals(let k, _), .isEmpty(let k), .isNotEmpty(let k): return [k]
        case .editing: return []
        case .not(let c): return c.referencedKeys
        case .all(let l), .any(let l): return l.flatMap(\.referencedKeys)
        }
    }
}
