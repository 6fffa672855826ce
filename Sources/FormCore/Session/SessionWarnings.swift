/// A session's warnings (`FormSession.warnings`): a list, or a save's check
/// whose warnings nobody has read yet.
///
/// Working out the warnings means checking every field a save did not change;
/// a session nobody observes defers that until `warnings` is read. What
/// `FormSession.validateField` does to one field's warnings meanwhile is
/// kept as a replacement per field and applied when they are worked out, so
/// the list read is the one the eager session would hold.
///
/// A check of the session's own current values keeps none of them
/// (`followsCurrent`): holding the dictionary made the next change to
/// `current` copy all of it, and freeing that copy at the next save cost as
/// much again (~40k instructions a save at 200 fields, issue 14). The
/// session tells what each change replaces instead (`noteOverwritten`), and
/// the values the check saw are put back together only when it is worked out.
struct SessionWarnings {
    private var found: [FieldError] = []
    /// The check whose `warnings()` are still to be worked out, boxed: a
    /// `ValidationCheck` held in place took some 200 bytes of every session,
    /// which made a session larger than glibc's per-thread cache of freed
    /// blocks serves (1,032 bytes), so each open allocated it the slow way
    /// although few sessions ever defer a check (issue 14).
    private var pending: PendingCheck?
    /// Whether `pending`'s values are the session's current values as they
    /// were, less what `overwritten` holds: the check itself keeps none.
    private(set) var followsCurrent = false
    /// For each key the session's current values changed since the check,
    /// the value it held then (`nil`: none).
    private var overwritten: [String: FieldValue?] = [:]
    /// Fields whose warnings were replaced since `pending` was made.
    private var replaced: Set<String> = []
    /// Their new warnings (a field that only warns), by key.
    private var added: [String: [FieldError]] = [:]
    /// Whether a replacement sorted the list by field position.
    private var sorts = false

    /// Whether the warnings are still to be worked out.
    var isPending: Bool { pending != nil }

    /// Whether there are no warnings, known without working any out.
    var isKnownEmpty: Bool { pending == nil && found.isEmpty }

    /// The warnings, worked out now if they were deferred.
    /// `current`: the session's current values now, asked for only when needed.
    mutating func list(in compiled: CompiledForm, current: @autoclosure () -> [String: FieldValue]) -> [FieldError] {
        guard var check = pending?.check else { return found }
        if followsCurrent { check.values = valuesAtCheck(current()) }
        var list = check.warnings().filter { $0.field.map { !replaced.contains($0) } ?? true }
        for key in compiled.fields.lazy.map(\.key) where added[key] != nil {
            list += added.removeValue(forKey: key) ?? []
        }
        set(sorts ? Self.sorted(list, in: compiled) : list)
        return found
    }

    /// Takes `list` as the warnings.
    mutating func set(_ list: [FieldError]) {
        found = list
        pending = nil
        followsCurrent = false
        overwritten = [:]
        replaced = []
        added = [:]
        sorts = false
    }

    /// Defers the warnings to `check`. `ofCurrent`: its values are the
    /// session's current values themselves, which it then stops holding.
    mutating func deferTo(_ check: consuming ValidationCheck, ofCurrent: Bool) {
        set([])
        if ofCurrent { check.values = [:] }
        pending = PendingCheck(check)
        followsCurrent = ofCurrent
    }

    /// The session's current value of `key` was `old` (`nil`: none) before
    /// the change it just made; only the first change since the check counts.
    mutating func noteOverwritten(_ key: String, was old: FieldValue?) {
        guard followsCurrent, overwritten.index(forKey: key) == nil else { return }
        overwritten.updateValue(old, forKey: key)
    }

    /// The session is about to change `current` in a way it does not name
    /// key by key: the check takes its values as they were, a copy.
    mutating func currentWillChange(_ current: [String: FieldValue]) {
        guard followsCurrent else { return }
        let values = valuesAtCheck(current)
        if var check = pending?.check {
            check.values = values
            pending = PendingCheck(check)
        }
        followsCurrent = false
        overwritten = [:]
    }

    /// The current values as the check saw them.
    private func valuesAtCheck(_ current: [String: FieldValue]) -> [String: FieldValue] {
        var values = current
        for (key, old) in overwritten { values[key] = old }
        return values
    }

    /// Replaces the warnings about the field with `key`: by `warns` (its
    /// stored value only warns; the list is then kept in field order), or by
    /// none (`nil`).
    mutating func replace(_ key: String, with warns: [FieldError]?, in compiled: CompiledForm) {
        guard pending != nil else {
            found = Self.replacing(key, with: warns, in: found, compiled)
            return
        }
        // A replacement drops the field's warnings and adds its new ones; the
        // sort (stable, by position) puts each field's in its place whatever
        // came first, so only the last replacement per field matters.
        replaced.insert(key)
        added[key] = warns
        if warns != nil { sorts = true }
    }

    /// `list` without the warnings about `key`, plus `warns` in field order when given.
    static func replacing(_ key: String, with warns: [FieldError]?, in list: [FieldError],
                          _ compiled: CompiledForm) -> [FieldError] {
        let others = list.filter { $0.field != key }
        guard let warns else { return others }
        return sorted(others + warns, in: compiled)
    }

    /// Stable, by the position of each warning's field (the form's own last).
    private static func sorted(_ list: [FieldError], in compiled: CompiledForm) -> [FieldError] {
        let position = { (error: FieldError) in error.field.flatMap(compiled.position(of:)) ?? .max }
        return list.enumerated()
            .sorted { (position($0.element), $0.offset) < (position($1.element), $1.offset) }.map(\.element)
    }
}

/// `SessionWarnings.pending`'s box. Never changed in place, so a copy of the
/// warnings keeps the check it had.
private final class PendingCheck {
    let check: ValidationCheck
    init(_ check: ValidationCheck) { self.check = check }
}
