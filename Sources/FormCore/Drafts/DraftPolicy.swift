/// When a session writes its draft. Whatever the policy, a save or a cancel
/// deletes the session's draft, and only the draft's owner is offered it.
///
/// ```swift
/// // A request handler: open, apply, save, answer. A rejected save leaves nothing behind.
/// let session = try await FormSession.open(form, key: key, backend: store, drafts: store,
///                                          owner: userID, draftPolicy: .none)
/// ```
public enum DraftPolicy: Sendable, Hashable {
    /// The unsaved state is written as the person types (coalesced, see
    /// `DraftAutosaver`): for a person at a terminal or a browser form.
    case autosave
    /// Nothing is written while editing; a save that is rejected (invalid, a
    /// conflict, the record gone, storage failing) keeps the unsaved state as
    /// a draft, for the owner to come back to.
    case keepOnReject
    /// No draft is ever written: for one-shot requests, whose rejected save
    /// the caller answers and forgets. A draft restored into the session is
    /// still deleted by its save or cancel.
    case none
}
