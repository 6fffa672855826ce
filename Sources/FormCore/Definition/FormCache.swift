import Glibc
public import Synchronization

/// What is made once per form and then shared — a compiled form, a store's
/// table mapping — found by the form's name and then compared whole, which is
/// cheap for the same value (its arrays share storage).
///
/// ```swift
/// let mappings = FormCache<TableMapping>()
/// if let cached = mappings.value(for: form) { return cached }
/// mappings.keep(mapping, for: form)
/// ```
///
/// Keyed by `String`, not by a struct of name, version and table: the first
/// use of a dictionary whose key is a new type costs the Swift runtime a
/// search of every protocol conformance in the binary (about 0.25 M
/// instructions, a twentieth of a cold `formstore show`; docs/binary.md),
/// while `String`'s is found already. Forms sharing a name (a spec edited in
/// place, other versions) keep the latest few; past `limit` names the cache
/// starts again rather than grow. The form asked for last is compared first,
/// with no key hashed: a service opens the same form request after request.
public final class FormCache<Value: Sendable>: Sendable {
    /// A form and what was made for it. A class: the last one asked for is
    /// compared in place and handed out with one retain, with no `Form` copied.
    @usableFromInline
    final class Entry: Sendable {
        let form: Form
        @usableFromInline let value: Value

        @usableFromInline
        init(_ form: Form, _ value: Value) {
            self.form = form
            self.value = value
        }

        /// Whether this entry is `other`'s. Not inlined: compared here, the
        /// kept form is read in place, where the caller's module copied it first.
        /// A copy of the kept form (the same value handed in load after
        /// load) is told by its bytes, before it is compared field by field
        /// (~200 instructions a lookup, two lookups a load; issue 14).
        @usableFromInline
        func isFor(_ other: Form) -> Bool { form.isCopy(of: other) || form == other }
    }

    @usableFromInline let entries = Mutex<[String: [Entry]]>([:])
    @usableFromInline let last = Mutex<Entry?>(nil)
    @usableFromInline let limit: Int
    @usableFromInline let perName: Int

    /// - parameter limit: how many names are kept before the cache starts again.
    /// - parameter perName: how many forms of one name are kept, the oldest dropped first.
    public init(limit: Int = 256, perName: Int = 8) {
        self.limit = limit
        self.perName = perName
    }

    /// What was kept for `form`, or nil.
    // Inlinable, so a cache of another module's values (a store's mappings)
    // is specialized there: unspecialized, looking up the metadata of
    // `Mutex<Entry?>` and `Optional<Value>` per call cost four times the
    // comparison (issue 14).
    @inlinable
    public func value(for form: Form) -> Value? {
        if let entry = last.withLock({ $0 }), isLast(entry, for: form) { return entry.value }
        return lookUp(form)
    }

    /// Whether the entry asked for last is `form`'s. An equal form built
    /// anew (a computed `static var form`, a form per request) is compared
    /// field by field, some 25k instructions for 20 fields: it becomes the
    /// form asked for last, so its next lookups find the same sections and
    /// compare cheaply.
    @usableFromInline
    func isLast(_ entry: Entry, for form: Form) -> Bool {
        guard entry.isFor(form) else { return false }
        if !entry.form.sharesSections(with: form) { last.withLock { $0 = Entry(form, entry.value) } }
        return true
    }

    /// The form's value among those kept by name, remembered as the last asked for.
    @usableFromInline
    func lookUp(_ form: Form) -> Value? {
        guard let found = entries.withLock({ $0[form.name]?.first { $0.isFor(form) } }) else { return nil }
        last.withLock { $0 = found.form.sharesSections(with: form) ? found : Entry(form, found.value) }
        return found.value
    }

    /// Keeps `value` for `form`, replacing what was kept for an equal form.
    // Inlinable for the same reason as `value(for:)`: run unspecialized, a
    // store's first mapping made the runtime build the metadata of the
    // entries' dictionary and arrays (48k instructions of a cold `show`).
    @inlinable
    public func keep(_ value: Value, for form: Form) {
        let entry = Entry(form, value)
        entries.withLock { entries in
            if entries.count >= limit && entries[form.name] == nil { entries.removeAll(keepingCapacity: true) }
            var kept = entries[form.name, default: []]
            kept.removeAll { $0.isFor(form) }
            if kept.count >= perName { kept.removeFirst(kept.count - perName + 1) }
            kept.append(entry)
            entries[form.name] = kept
        }
        last.withLock { $0 = entry }
    }
}

extension Form {
    /// Whether `other` has this form's very bytes: the same strings and
    /// arrays (by reference) and the same scalars, so equal, as `Array`'s
    /// `==` answers at once for one buffer. Bytes that differ (padding, a
    /// form built anew) say nothing: the caller then compares with `==`.
    func isCopy(of other: Form) -> Bool {
        withUnsafeBytes(of: self) { mine in
            withUnsafeBytes(of: other) { theirs in memcmp(mine.baseAddress!, theirs.baseAddress!, mine.count) == 0 }
        }
    }

    /// Whether both forms hold the very same sections array (one form
    /// copied, not built twice): then comparing them costs little.
    func sharesSections(with other: Form) -> Bool {
        sections.withUnsafeBufferPointer { mine in
            other.sections.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress }
        }
    }
}
