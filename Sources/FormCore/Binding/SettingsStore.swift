import Foundation

/// Typed values by key that outlive a process, like `UserDefaults`; observers
/// hear of every change, whoever made it. FormStorage keeps one in SQLite;
/// `InMemorySettingsStore` serves tests.
public protocol SettingsStore: AnyObject, Sendable {
    func value(forKey key: String) -> FieldValue?
    func set(_ value: FieldValue, forKey key: String) throws
    func removeValue(forKey key: String)
    /// Every key that has a value, sorted.
    var keys: [String] { get }
    /// Calls `handler` with the changed keys after each change until the
    /// returned observation is cancelled or released.
    func addObserver(_ handler: @escaping @Sendable (Set<String>) -> Void) -> SettingsObservation
}

/// Ends an observation when cancelled or released.
public final class SettingsObservation: Sendable {
    private let onCancel: @Sendable () -> Void

    public init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    /// Stops the observation; calling it again does nothing more.
    public func cancel() { onCancel() }

    deinit { onCancel() }
}

/// A settings store in memory, safe to share between threads.
///
/// ```swift
/// let store = InMemorySettingsStore(["theme": "dark"])
/// let observation = store.addObserver { keys in print(keys) }
/// try store.set(.bool(true), forKey: "newsletter")   // prints ["newsletter"]
/// ```
public final class InMemorySettingsStore: SettingsStore, @unchecked Sendable {
    // Guards `values`, `observers` and `nextObserver`.
    private let lock = NSLock()
    private var values: [String: FieldValue]
    private var observers: [Int: @Sendable (Set<String>) -> Void] = [:]
    private var nextObserver = 0

    public init(_ values: [String: FieldValue] = [:]) {
        self.values = values
    }

    public func value(forKey key: String) -> FieldValue? {
        lock.withLock { values[key] }
    }

    public func set(_ value: FieldValue, forKey key: String) throws {
        let changed: Bool = lock.withLock {
            defer { values[key] = value }
            return values[key] != value
        }
        if changed { notify([key]) }
    }

    public func removeValue(forKey key: String) {
        let removed = lock.withLock { values.removeValue(forKey: key) != nil }
        if removed { notify([key]) }
    }

    public var keys: [String] {
        lock.withLock { values.keys.sorted() }
    }

    public func addObserver(_ handler: @escaping @Sendable (Set<String>) -> Void) -> SettingsObservation {
        let id: Int = lock.withLock {
            nextObserver += 1
            observers[nextObserver] = handler
            return nextObserver
        }
        return SettingsObservation { [weak self] in
            guard let self else { return }
            _ = self.lock.withLock { self.observers.removeValue(forKey: id) }
        }
    }

    // Observers run outside the lock so that they may read the store.
    private func notify(_ keys: Set<String>) {
        let handlers = lock.withLock { Array(observers.values) }
        for handler in handlers { handler(keys) }
    }
}

/// A settings store as a form model. Fields may be bound to keys that have a
/// value or a registered default (as `UserDefaults.register(defaults:)`).
public struct SettingsModel: FormModel, Sendable {
    public let store: any SettingsStore
    public var defaults: [String: FieldValue]

    public init(store: any SettingsStore, defaults: [String: FieldValue] = [:]) {
        self.store = store
        self.defaults = defaults
    }

    public func value(forKey key: String) -> FieldValue {
        store.value(forKey: key) ?? defaults[key] ?? .null
    }

    public mutating func setValue(_ value: FieldValue, forKey key: String) throws {
        try store.set(value, forKey: key)
    }

    public var allKeys: [String] {
        Set(store.keys).union(defaults.keys).sorted()
    }

    public func observeChanges(_ handler: @escaping @Sendable (Set<String>) -> Void) -> SettingsObservation? {
        store.addObserver(handler)
    }
}
