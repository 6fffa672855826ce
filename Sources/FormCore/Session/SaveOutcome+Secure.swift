extension SaveOutcome {
    /// The outcome as it may be shown to whoever saved: a conflict's values
    /// of a secure field of `form` (a password: the one it replaced, the
    /// caller's, another writer's) each become `mask`; empty ones stay, as
    /// they tell nothing. Every face that prints or answers an outcome
    /// (the command's `--format json`, the web's API) passes it through this.
    public func maskingSecureValues(of form: Form, with mask: FieldValue) -> SaveOutcome {
        guard case .conflict(let conflicts) = self else { return self }
        return .conflict(conflicts.map { conflict in
            guard form.field(conflict.field)?.isSecure == true else { return conflict }
            func masked(_ value: FieldValue) -> FieldValue { value.isEmpty ? value : mask }
            return FieldConflict(field: conflict.field, base: masked(conflict.base), mine: masked(conflict.mine),
                                 theirs: masked(conflict.theirs))
        })
    }
}
