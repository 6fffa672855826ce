import FormBasics
import FoundationEssentials

/// Binds a form to a model: reads every stored field's value from it, writes
/// edits back, and tells the form (`onChange`) when the model changed
/// elsewhere.
///
/// ```swift
/// let binding = try FormBinding(form: form, model: StructModel(profile))
/// binding.onChange = { keys, values in print("changed elsewhere:", keys) }
/// var values = binding.read()                 // ["firstName": .text("Ada"), ...]
/// try binding.write("age", .int(37))
/// binding.update { $0.model.firstName = "Grace" }   // onChange(["firstName"], ...)
/// ```
///
/// A settings store reports its own changes; struct and dictionary models are
/// changed through `write`, `update`, or a `refresh()` after they changed.
/// `Sendable` when its model is (every access takes the binding's lock); a
/// binding of a model that is not `Sendable` (a class an application shares
/// with its views) stays where it was made, and `model` hands out that class.
public final class FormBinding<Model: FormModel>: RefreshTarget {
    public let form: Form
    // Guards `current`, `snapshot`, `handler` and `isWriting`. Recursive: a
    // settings store reports a write back on the writing thread.
    private let lock = Lock(recursive: true)
    private var isWriting = false
    private var current: Model
    private var snapshot: [String: FieldValue] = [:]
    private var handler: (@Sendable (Set<String>, [String: FieldValue]) -> Void)?
    private var observation: SettingsObservation?
    private let streams = ChangeStreams()

    /// Binds `form` to `model`.
    /// - throws: `BindingError.missingKey` naming the first stored field whose
    ///   key the model lacks (or whose key path had no coding key).
    public init(form: Form, model: Model) throws(BindingError) {
        try FormBinding.validateKeys(form: form, model: model)
        self.form = form
        self.current = model
        self.snapshot = FormBinding.values(of: form, in: model)
        let target = WeakRefreshTarget(self)
        self.observation = model.observeChanges { _ in target.refresh() }
    }

    /// Checks that the model has every stored field's key.
    public static func validateKeys(form: Form, model: Model) throws(BindingError) {
        for field in form.fields where field.isStored && field.holdsValue {
            if let unresolved = field.unresolvedKeyPath {
                throw BindingError.missingKey(unresolved, field: field.label, detail: "no coding key found for the key path")
            }
            guard model.hasKey(field.key) else {
                throw BindingError.missingKey(field.key, field: field.label, detail: nil)
            }
        }
    }

    /// The model as it is now.
    public var model: Model { lock.withLock { current } }

    /// Called with the changed keys and all values when the model changed elsewhere.
    public var onChange: (@Sendable (Set<String>, [String: FieldValue]) -> Void)? {
        get { lock.withLock { handler } }
        set { lock.withLock { handler = newValue } }
    }

    /// The keys changed elsewhere, as an `AsyncSequence`: what `onChange` is
    /// told, for a consumer in a task (a service pushing changes to its
    /// clients). Each access is a new stream; it ends when the binding is
    /// released, and cancelling its consumer ends it.
    ///
    /// ```swift
    /// for await keys in binding.changes { push(keys, binding.read()) }
    /// ```
    public var changes: AsyncStream<Set<String>> { streams.makeStream() }

    /// Every stored field's value, by field key.
    public func read() -> [String: FieldValue] {
        lock.withLock { FormBinding.values(of: form, in: current) }
    }

    /// Writes one field's model value. Not reported to `onChange`: the form made it.
    public func write(_ key: String, _ value: FieldValue) throws {
        try lock.withLock {
            isWriting = true
            defer { isWriting = false }
            try current.setValue(value, forKey: key)
            snapshot[key] = current.value(forKey: key)
        }
    }

    /// Writes several values, all or none: they are written into a copy of
    /// the model, which replaces it once every one is taken. A value the
    /// model cannot hold leaves it as it was (a model that is a reference
    /// type, which the copy shares, keeps the values written before).
    public func write(_ values: [String: FieldValue]) throws {
        try lock.withLock {
            isWriting = true
            defer { isWriting = false }
            var next = current
            for (key, value) in values.sorted(by: { $0.key < $1.key }) { try next.setValue(value, forKey: key) }
            current = next
            for key in values.keys { snapshot[key] = current.value(forKey: key) }
        }
    }

    /// Changes the model directly (a change made elsewhere) and reports what changed.
    @discardableResult
    public func update(_ body: (inout Model) throws -> Void) rethrows -> Set<String> {
        try lock.withLock { try body(&current) }
        return refresh()
    }

    /// Compares the model with what the form last saw and reports the differences to `onChange`.
    @discardableResult
    public func refresh() -> Set<String> {
        let (changed, values, notify): (Set<String>, [String: FieldValue], (@Sendable (Set<String>, [String: FieldValue]) -> Void)?) =
            lock.withLock {
                // The form's own write, echoed by the model: nothing changed elsewhere.
                if isWriting { return ([], [:], nil) }
                let now = FormBinding.values(of: form, in: current)
                let changed = Set(now.keys.filter { now[$0] != snapshot[$0] })
                snapshot = now
                return (changed, now, handler)
            }
        if !changed.isEmpty {
            notify?(changed, values)
            streams.yield(changed)
        }
        return changed
    }

    private static func values(of form: Form, in model: Model) -> [String: FieldValue] {
        var result: [String: FieldValue] = [:]
        for field in form.fields where field.isStored && field.holdsValue {
            result[field.key] = model.value(forKey: field.key)
        }
        return result
    }
}

// The lock guards the binding's state; the model may cross threads only when it is `Sendable`.
extension FormBinding: @unchecked Sendable where Model: Sendable {}

/// Why a form could not be bound to a model.
public struct BindingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key the model lacks (or the key path without a coding key).
    public let key: String
    public let message: String

    private init(key: String, message: String) {
        self.key = key
        self.message = message
    }

    /// A stored field is bound to a key the model does not have.
    public static func missingKey(_ key: String, field: String, detail: String?) -> BindingError {
        BindingError(key: key, message: "field \"\(field)\" is bound to \"\(key)\", which the model does not have"
                     + (detail.map { " (\($0))" } ?? ""))
    }

    public var description: String { message }
}

/// Lets a store's observer reach a binding without keeping it alive (and
/// without capturing its generic type).
protocol RefreshTarget: AnyObject {
    @discardableResult func refresh() -> Set<String>
}

/// Handed to the model's `observeChanges`, whose handler is `@Sendable`: a
/// model that reports changes from another thread (a settings store) is
/// `Sendable`, and `refresh()` takes the binding's lock; a model that is not
/// reports on the thread that changed it.
private final class WeakRefreshTarget: @unchecked Sendable {
    private let lock = Lock()
    nonisolated(unsafe) private weak var target: (any RefreshTarget)?

    init(_ target: any RefreshTarget) { self.target = target }

    func refresh() {
        let target = lock.withLock { self.target }
        target?.refresh()
    }
}
