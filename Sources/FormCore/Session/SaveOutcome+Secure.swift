extension SaveOutcome {
    /// The outcome as it may be shown to whoever saved: a conflict's values
    /// of a secure field of `form` (a password: the one it replaced, the
    /// caller's, another writer's) each become `mask`; empty ones stay, as
    /// they tell nothing. Every face that prints or answers an outcome
    /// (the command's `--format json`, the web's API) passes it through this.
    public func maskingSecureValues(of form: Form, with mask: FieldValue) -> SaveOutcome {
        guard case .conflict(let conflicts) = self else { return self }
        return .conflict(conflicts.map { conflict in
            guard form.conflictIsSecure(conflict.field) else { return conflict }
            func masked(_ value: FieldValue) -> FieldValue { value.isEmpty ? value : mask }
            return FieldConflict(field: conflict.field, base: masked(conflict.base), mine: masked(conflict.mine),
                                 theirs: masked(conflict.theirs))
        })
    }
}

extension Form {
    /// Whether the field a conflict names is secure: a field of the form, or
    /// a column of a group's row (`lines[11].amount`, `GroupPath`).
    func conflictIsSecure(_ path: String) -> Bool {
        if let field = field(path) { return field.isSecure }
        guard let bracket = path.firstIndex(of: "["), let close = path.lastIndex(of: "]"),
              path[close...].hasPrefix("]."), let group = group(String(path[..<bracket])) else { return false }
        return group.field(String(path[path.index(close, offsetBy: 2)...]))?.isSecure == true
    }

    /// `conflicts`, each marked secure where its field is (`FieldConflict.isSecure`).
    func markingSecure(_ conflicts: [FieldConflict]) -> [FieldConflict] {
        conflicts.map { conflict in
            var marked = conflict
            marked.isSecure = conflictIsSecure(conflict.field)
            return marked
        }
    }
}
