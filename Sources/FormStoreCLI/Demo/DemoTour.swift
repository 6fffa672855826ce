import FormCore
import FormStorage
import FoundationEssentials

/// The short tour `formstore demo` prints after building the demo database:
/// each step runs the real library against it, so what it shows is what happened.
struct DemoTour {
    let store: FormStore
    let path: String
    let out: any TextSink

    func run() throws {
        let forms = try DemoBuilder.forms
        func form(_ name: String) -> Form { forms.first { $0.name == name }! }

        step("The forms (specs kept in the database; any other table gets an inferred form)")
        for form in forms {
            line("  \(form.name.padded(to: 13)) \(form.title) — \(form.fields.count) fields, \(form.mode.rawValue) mode, table \(form.tableName)")
        }

        step("A record: profile 1")
        let profile = try open(form("profile"), 1)
        for field in profile.visibleFields where field.holdsValue {
            line("  \(field.label): \(profile.text(field.key))")
        }
        line("  (edit mode: the Delete button appears only while editing)")

        step("An edit through transformers: register 1")
        let register = try open(form("register"), 1)
        try register.set("phone", input: "555.867.5309")
        try register.set("state", input: " ny ")
        line("  typed phone \"555.867.5309\" → shown \(register.text("phone")), held as \(describe(register.value("phone")))")
        line("  typed state \" ny \" → \(describe(register.value("state")))")
        if case .saved(let changed, _) = try register.save() { line("  saved: \(changed.joined(separator: ", "))") }

        step("A validation failure: a new registration")
        let registration = FormSession.new(form("registration"), backend: store)
        try registration.set("username", input: "jo")
        try registration.set("password", input: "secret")
        try registration.set("password2", input: "secrets")
        try registration.set("postalCode", input: "10 115")
        if case .invalid(let errors) = try registration.save() {
            for error in errors { line("  \(error.field ?? "form"): \(error.message)") }
        }
        line("  postal code \"10 115\" is held as \(describe(registration.value("postalCode")))")

        step("Dirty fields: signup 1")
        let signup = try open(form("signup"), 1)
        try signup.set("lastName", input: "Park")
        try signup.set("age", input: "35")
        line("  after two edits: dirty = \(signup.dirtyFields)")
        try signup.set("lastName", input: "Lee")
        line("  after typing the old last name back: dirty = \(signup.dirtyFields)")
        line("  warning before leaving: \(signup.unsavedChangesWarning ?? "(none)")")
        try signup.cancel()

        step("A draft saved and restored: profile 2")
        let typing = try open(form("profile"), 2, drafts: true)
        try typing.beginEditing()
        try typing.set("firstName", input: "Bobby")
        typing.close()   // what a crash or Ctrl-C would flush
        line("  typed \"Bobby\" and left without saving; drafts kept: \(try store.drafts(form: "profile").count)")
        let reopened = try open(form("profile"), 2, drafts: true)
        if let draft = reopened.offeredDrafts.first {
            let restore = try reopened.restore(draft)
            line("  reopened: the draft is offered and restores \(restore.restored) → first name \(reopened.text("firstName"))")
        }
        try reopened.cancel()
        line("  cancelled: drafts left \(try store.drafts(form: "profile").count)")

        step("A conflict: two people edit profile 1")
        let mine = try open(form("profile"), 1)
        let theirs = try open(form("profile"), 1)
        try mine.beginEditing()
        try theirs.beginEditing()
        try theirs.set("lastName", input: "Kim")
        _ = try theirs.save()
        try mine.set("lastName", input: "Moss")
        if case .conflict(let conflicts) = try mine.save() {
            for conflict in conflicts {
                line("  \(conflict.field): was \(describe(conflict.base)), yours \(describe(conflict.mine)), theirs \(describe(conflict.theirs)) — nothing written")
            }
        }

        step("A settings form over the settings store (free mode: each change saved at once)")
        let settingsForm = try DemoBuilder.settingsForm
        let settingsStore = SQLiteSettingsStore(store: store)
        let binding = try FormBinding(form: settingsForm, model: SettingsModel(store: settingsStore, defaultsFrom: settingsForm))
        let preferences = try FormSession.bound(to: binding)
        try preferences.set("theme", input: "dark")
        try preferences.set("fontSize", input: "40")
        line("  theme → \(describe(settingsStore.value(forKey: "theme") ?? .null)), saved at once in formstore_settings")
        line("  font size 40 refused: \(preferences.errors("fontSize").map(\.message).joined()); still \(describe(settingsStore.value(forKey: "fontSize") ?? .null))")

        step("Try next")
        let db = path.contains(" ") ? "'\(path)'" : path
        for command in [
            "formstore --db \(db) forms",
            "formstore --db \(db) show profile 1",
            "formstore --db \(db) list basic-info --format json",
            "formstore --db \(db) set register 2 phone=5551230000 state=tx",
            "formstore --db \(db) edit signup 1            # prompts; --editor for $EDITOR",
            "formstore --db \(db) export signups --format csv",
        ] {
            line("  \(command)")
        }
        out.flush()
    }

    private func open(_ form: Form, _ id: Int64, drafts: Bool = false) throws -> FormSession {
        try FormSession.open(form, key: RecordKey("id", .int(id)), backend: store, drafts: drafts ? store : nil,
                             autosave: .init(fallback: nil))
    }

    private func describe(_ value: FieldValue) -> String {
        switch value {
        case .text(let text): return "\"\(text)\""
        case .int(let number): return "\(number) (a number)"
        default: return "\(value)"
        }
    }

    private func step(_ title: String) { out.write("\n== \(title)\n") }
    private func line(_ text: String) { out.write(text + "\n") }
}
