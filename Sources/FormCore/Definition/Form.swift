/// A form: sections of fields bound to a model, its cross-field rules, message
/// overrides and edit mode. Built with the result-builder DSL or from a JSON spec;
/// the same form built both ways compares equal.
public struct Form: Sendable, Hashable {
    /// Unique name: the spec's file name, or a table's name for an inferred form.
    public var name: String
    public var title: String
    /// Bumped when the fields change; drafts remember the version they were made under.
    public var version: Int = 1
    public var sections: [Section]
    public var rules: [FormRule] = []
    public var messages: MessageOverrides = MessageOverrides()
    public var mode: EditMode = .save
    public var validationTiming: ValidationTiming = .onCommit
    /// The SQLite table the form edits (its name when `nil`).
    public var table: String? = nil
    /// The spec means to edit a table not named like the form (`"editsOtherTable": true`):
    /// without it the `formstore` command refuses such a spec, so that a planted
    /// spec cannot show one table under another's name (issue 20).
    public var editsOtherTable = false
    /// Primary-key columns; introspected from the table when empty.
    public var primaryKey: [String] = []
    /// A column checked and bumped on every save, for optimistic conflict detection.
    public var versionColumn: String? = nil
    /// Shown before unsaved changes are thrown away; `nil` turns the warning off.
    public var unsavedChangesWarning: String? = Form.defaultUnsavedChangesWarning

    public static let defaultUnsavedChangesWarning =
        "You have unsaved changes. Discard them?"

    public init(name: String, title: String? = nil, sections: [Section]) {
        self.name = name
        self.title = title ?? name
        self.sections = sections
    }

    /// Every field, in order.
    public var fields: [Field] { sections.flatMap(\.fields) }

    /// The field with this key, if any.
    public func field(_ key: String) -> Field? {
        for section in sections {
            if let f = section.fields.first(where: { $0.key == key }) { return f }
        }
        return nil
    }

    /// The table this form reads and writes.
    public var tableName: String { table ?? name }
}
