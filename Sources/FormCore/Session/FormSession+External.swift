/// Changes by others reach an open session: the backend hears another
/// connection's or process's commit (`CommitObserving`) and signals the
/// session's owner, who calls `takeExternalChanges()`. That reads the record
/// once: untouched fields take the new stored values, and a dirty field
/// someone else changed is flagged (base, mine, theirs) before any save is
/// tried. Nothing reads the record on a timer.
///
/// ```swift
/// let watch = try session.watchExternalChanges()
/// Task {
///     for await _ in watch.commits {
///         let change = try session.takeExternalChanges()
///         for conflict in change?.conflicts ?? [] { print("changed underneath:", conflict) }
///     }
/// }
/// ```
extension FormSession {
    /// Starts hearing commits by others to the database (once; later calls
    /// return the same signal).
    ///
    /// - throws: `SessionError` for a backend that cannot hear other writers
    ///   or a record not saved yet; the backend's error when it cannot watch.
    @discardableResult
    public func watchExternalChanges() throws -> ExternalCommitSignal {
        if let externalWatch { return externalWatch.signal }
        guard let observing = backend as? any CommitObserving else {
            throw SessionError.mode("this backend does not hear other writers")
        }
        let watch = ExternalWatch()
        let signal = watch.signal
        watch.observation = try observing.observeCommits { signal.heard() }
        externalWatch = watch
        return signal
    }

    /// Stops hearing commits by others.
    public func stopWatchingExternalChanges() {
        externalWatch = nil
    }

    /// The dirty fields someone else changed underneath and that are not
    /// resolved yet (`resolveExternalConflict`); a save of them is refused as a conflict.
    public var externalConflicts: [FieldConflict] { form.markingSecure((externalWatch?.conflicts ?? []).filter(isStillOpen)) }

    /// A flagged conflict stands while the field keeps its old base and its
    /// own edit: a reload, a save or a cancel since settled it.
    private func isStillOpen(_ conflict: FieldConflict) -> Bool {
        (pristineValues[conflict.field] ?? .null) == conflict.base && isChanged(conflict.field)
    }

    /// Takes what other writers committed since the last call: `nil` when no
    /// commit was heard (this reads nothing), else the record is read once and
    /// applied (see `ExternalChange`), with a `.changedExternally` event when
    /// anything changed.
    ///
    /// - throws: the backend's error reading the record.
    @discardableResult
    public func takeExternalChanges() throws -> ExternalChange? {
        guard let externalWatch, externalWatch.signal.take(), let key else { return nil }
        let loaded: StoredRecord?
        do {
            loaded = try backend.load(form, key: key)
        } catch {
            externalWatch.signal.heard()  // still to be taken
            throw error
        }
        guard let record = loaded else {
            return ExternalChange(changed: [], conflicts: [], deleted: true)
        }
        return take(external: record)
    }

    /// `takeExternalChanges()`, awaited: the record is read through the
    /// backend's async API (a service's sessions).
    ///
    /// - throws: the backend's error; `CancellationError`.
    @discardableResult
    nonisolated(nonsending)
    public func takeExternalChanges() async throws -> ExternalChange? {
        guard let externalWatch, externalWatch.signal.take(), let key else { return nil }
        let loaded: StoredRecord?
        do {
            loaded = try await backend.load(form, key: key)
        } catch {
            externalWatch.signal.heard()  // still to be taken
            throw error
        }
        guard let record = loaded else {
            return ExternalChange(changed: [], conflicts: [], deleted: true)
        }
        return take(external: record)
    }

    /// Ends the flag on a field changed underneath: `keepMine` makes the
    /// next save write this session's value over theirs; otherwise the field
    /// takes their value and is clean again.
    public func resolveExternalConflict(_ field: String, keepMine: Bool) {
        if resolveExternalRowConflict(field, keepMine: keepMine) {
            if externalConflicts.isEmpty && externalRowConflicts.isEmpty, let version = externalWatch?.resolvedVersion { baseVersion = version }
            return
        }
        guard let externalWatch, let conflict = externalConflicts.first(where: { $0.field == field }) else { return }
        externalWatch.conflicts.removeAll { $0.field == field }
        pristineValues[field] = conflict.theirs
        if !keepMine {
            current[field] = conflict.theirs
            inputs[field] = nil
            emit(.valueChanged(field: field))
        }
        if externalConflicts.isEmpty && externalRowConflicts.isEmpty, let version = externalWatch.resolvedVersion { baseVersion = version }
        draftChanged()
    }

    /// The part of `takeExternalChanges()` that needs no storage. A conflicted
    /// field keeps its old base (and the session its old version), so a save
    /// of it is checked against what is stored and refused.
    func take(external record: StoredRecord) -> ExternalChange {
        var changed: [String] = []
        let open = externalConflicts
        var conflicts = open.filter { conflict in
            (record.slotValues[conflict.field] ?? .null) != (current[conflict.field] ?? .null)
        }
        for field in fields where field.holdsValue && field.isStored {
            let key = field.key
            let stored = record.slotValues[key] ?? .null
            let base = pristineValues[key] ?? .null
            let mine = current[key] ?? .null
            guard stored != base else { continue }
            if mine == base && inputs[key] == nil {
                current[key] = stored
                pristineValues[key] = stored
                changed.append(key)
            } else if stored == mine {
                pristineValues[key] = stored
                conflicts.removeAll { $0.field == key }
            } else {
                conflicts.removeAll { $0.field == key }
                let original = open.first { $0.field == key }?.base ?? base
                conflicts.append(FieldConflict(field: key, base: original, mine: mine, theirs: stored))
            }
        }
        externalWatch?.conflicts = conflicts
        externalWatch?.resolvedVersion = record.version
        let groups = takeGroups(external: record.groups)
        if conflicts.isEmpty && groups.conflicts.isEmpty { baseVersion = record.version }
        let change = ExternalChange(changed: changed, conflicts: form.markingSecure(conflicts), deleted: false,
                                    rows: groups.rows, rowConflicts: groups.conflicts)
        if !changed.isEmpty || !conflicts.isEmpty {
            emit(.changedExternally(changed: changed, conflicts: conflicts))
        }
        if !groups.rows.isEmpty || !groups.conflicts.isEmpty {
            emit(.rowsChangedExternally(rows: groups.rows, conflicts: groups.conflicts))
        }
        if !changed.isEmpty || !groups.rows.isEmpty { draftChanged() }
        return change
    }
}
