/// How a form is edited and saved (CBFormController's four modes).
public enum EditMode: String, Sendable, Hashable, CaseIterable, Codable {
    /// Read-only until `beginEditing()`; save or cancel end editing.
    case edit
    /// Read-only, except fields marked `enabledWhenNotEditing`.
    case frozen
    /// Always editable; saving is possible once something is dirty.
    case save
    /// No save step: each valid change is saved at once.
    case free
}
