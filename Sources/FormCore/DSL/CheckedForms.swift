import Synchronization

/// The forms `Form.checkDefinition()` found sound, so that a session opened
/// on the same form again (a service's every request) skips the check: a
/// hash and a comparison instead of walking every field, condition and rule.
/// A handful of forms per process is the usual case; past `limit` the memory
/// starts again rather than grow.
enum CheckedForms {
    private static let checked = Mutex<Set<Form>>([])
    private static let limit = 256

    static func contains(_ form: Form) -> Bool {
        checked.withLock { $0.contains(form) }
    }

    static func insert(_ form: Form) {
        checked.withLock { forms in
            if forms.count >= limit { forms.removeAll(keepingCapacity: true) }
            forms.insert(form)
        }
    }
}
