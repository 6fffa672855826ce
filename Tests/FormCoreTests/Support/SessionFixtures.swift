import Foundation
@testable import FormCore

/// A small profile form (CBFormController's example) in every edit mode.
func profileForm(mode: EditMode = .save, versionColumn: String? = nil) -> Form {
    var id = Field(key: "id", label: "ID", kind: .integer)
    id.isReadOnly = true
    var first = Field(key: "firstName", label: "First name", kind: .name)
    first.isRequired = true
    let last = Field(key: "lastName", label: "Last name", kind: .name)
    var newsletter = Field(key: "newsletter", label: "Newsletter", kind: .bool)
    newsletter.enabledWhenNotEditing = true
    var delete = Field(key: "delete", label: "Delete", kind: .action)
    delete.actionStyle = .destructive
    delete.hiddenWhen = .not(.editing)
    var form = Form(name: "profile", title: "Profile", sections: [
        Section("Basic", fields: [id, first, last, newsletter]),
        Section(nil, fields: [delete]),
    ])
    form.mode = mode
    form.versionColumn = versionColumn
    form.table = "profiles"
    return form
}

/// A backend holding one profile, id 1.
func profileBackend(versionColumn: String? = nil) -> MemoryBackend {
    let backend = MemoryBackend(keyColumns: ["id"])
    var values: [String: FieldValue] = ["id": 1, "firstName": "Ann", "lastName": "Lee", "newsletter": false]
    if let versionColumn { values[versionColumn] = 1 }
    backend.put(values, versionColumn: versionColumn)
    return backend
}

/// Autosave that never touches the person's real state directory.
func testAutosave(interval: Duration = .milliseconds(50), fallback: (any DraftStore)? = nil) -> DraftAutosaver.Policy {
    DraftAutosaver.Policy(interval: interval, fallback: fallback)
}
