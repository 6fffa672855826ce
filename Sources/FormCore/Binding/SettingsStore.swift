import FormBasics
import FoundationEssentials

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

/// The observers of a settings store: every store keeps its own and notifies
/// them after each change, outside any lock, so that they may read the store.
public final class SettingsObservers: @unchecked Sendable {
    // Guards `handlers` and `next`.
    private let lock = Lock()
    private var handlers: [Int: @Sendable (Set<String>) -> Void] = [:]
    private var next = 0

    public init() {}

    public func add(_ handler: @escaping @Sendable (Set<String>) -> Void) -> SettingsObservation {
        let id: Int = lock.withLock {
            next += 1
            handlers[next] = handler
            return next
        }
        return SettingsObservation { [weak self] in
            guard let self else { return }
            _ = self.lock.withLock { self.handlers.removeValue(forKey: id) }
        }
    }

    public func notify(_ keys: Set<String>) {
        let current = lock.withLock { Array(handlers.values) }
        for handler in current { handler(keys) }
    }
}

/// A settings store in memory, safe to share between threads.
///
/// ```swift
/// let store = InMemorySettingsStore(["theme": "dark"])
/// let observation = store.addObserver { keys in print(keys) }
/// try store.set(.bool(true), forKey: "newsletter")   // prints ["newsletter"]
/// ```
public final class InMemorySettingsStore: SettingsStore, @unchecked Sendable {
    // Guards `values`.
    private let lock = Lock()
    private var values: [String: FieldValue]
    private let observers = SettingsObservers()

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
        observers.add(handler)
    }

    private func notify(_ keys: Set<String>) { observers.notify(keys) }
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

    /// Registers every field of `form` that holds a value with its default
    /// (`.null` when it has none), so each may be bound before it was ever set.
    public init(store: any SettingsStore, defaultsFrom form: Form) {
        var defaults: [String: FieldValue] = [:]
        for field in form.fields where field.isStored && field.holdsValue { defaults[field.key] = field.defaultValue }
        self.init(store: store, defaults: defaults)
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
