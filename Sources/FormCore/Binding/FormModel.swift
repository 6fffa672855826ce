/// Something a form reads and writes by key: a Codable struct (`StructModel`),
/// a dictionary (`DictionaryModel`) or a settings store (`SettingsModel`).
public protocol FormModel {
    /// The value at `key`; `.null` when there is none.
    func value(forKey key: String) -> FieldValue
    /// Writes `value` at `key`.
    /// - throws: `ModelError` when the model has no such key or cannot hold the value.
    mutating func setValue(_ value: FieldValue, forKey key: String) throws
    /// Every key the model holds, sorted.
    var allKeys: [String] { get }
    /// Whether a field may be bound to `key` (by default: `allKeys` contains it).
    func hasKey(_ key: String) -> Bool
    /// Starts reporting changes made elsewhere (by key); `nil` when the model
    /// cannot tell (value types, which change only through their binding).
    func observeChanges(_ handler: @escaping @Sendable (Set<String>) -> Void) -> SettingsObservation?
    /// Whether `key` may hold nothing (`.null`): by default yes; a struct's
    /// property that is no `Optional` cannot.
    func acceptsNull(forKey key: String) -> Bool
}

extension FormModel {
    public func hasKey(_ key: String) -> Bool { allKeys.contains(key) }
    public func acceptsNull(forKey key: String) -> Bool { true }
    public func observeChanges(_ handler: @escaping @Sendable (Set<String>) -> Void) -> SettingsObservation? { nil }
}

/// Why a model could not be read or written.
public struct ModelError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Sendable, Hashable { case missingKey, typeMismatch, notAnObject }
    private let code: Code
    /// The key that failed.
    public let key: String
    public let message: String

    private init(_ code: Code, key: String, message: String) {
        self.code = code
        self.key = key
        self.message = message
    }

    /// The model has no such key.
    public static func missingKey(_ key: String) -> ModelError {
        ModelError(.missingKey, key: key, message: "the model has no key \"\(key)\"")
    }

    /// The value does not fit the key's type.
    public static func typeMismatch(_ key: String, _ detail: String) -> ModelError {
        ModelError(.typeMismatch, key: key, message: "cannot store the value at \"\(key)\": \(detail)")
    }

    /// A dotted path runs through a value that is not a dictionary.
    public static func notAnObject(_ key: String, at prefix: String) -> ModelError {
        ModelError(.notAnObject, key: key, message: "cannot reach \"\(key)\": \"\(prefix)\" holds a value, not a dictionary")
    }

    public var isMissingKey: Bool { code == .missingKey }
    public var description: String { message }
}
