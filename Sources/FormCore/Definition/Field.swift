import FoundationEssentials

/// One field of a form, bound to a key on the model (a column, a coding key,
/// a dotted dictionary path or a settings key).
public struct Field: Sendable, Hashable {
    /// The model key (storage key) this field reads and writes.
    public var key: String
    public var label: String
    public var kind: FieldKind
    public var placeholder: String? = nil
    /// The value a new record starts with.
    public var defaultValue: FieldValue = .null
    /// Must be filled in: not NULL and not empty text; a `bool` must be on
    /// (an accepted terms switch).
    public var isRequired: Bool = false
    /// Refuses NULL and nothing else, as a `NOT NULL` column does: empty
    /// text, 0 and `false` are values. An inferred form's NOT NULL (and a
    /// key's) is this, not `isRequired`, which would refuse what the schema
    /// takes (docs/fidelity.md, "A guess never blocks").
    public var isNotNull: Bool = false
    /// Whether a face marks the field as wanting a value (`*`, "required"):
    /// `isRequired`, or `isNotNull` where the input can be left empty (a
    /// switch is on or off, a value either way).
    public var wantsValue: Bool { isRequired || (isNotNull && kind != .bool) }
    public var isReadOnly: Bool = false
    /// Editable even while the form is frozen or not being edited (actions by default).
    public var enabledWhenNotEditing: Bool
    /// Input is hidden and never written to a draft, a log or an error message.
    public var isSecure: Bool
    /// `false` for a field that only confirms another (a repeated password):
    /// validated, never stored.
    public var isStored: Bool
    public var hint: String? = nil
    public var choices: [Choice] = []
    public var choiceStyle: ChoiceStyle = .picker
    /// For a choice: selecting the chosen value again clears it.
    public var allowsDeselect: Bool = false
    public var actionStyle: ActionStyle = .normal
    /// Autocomplete values offered while typing.
    public var suggestions: [String] = []
    /// Date/time format for the input (kind default when `nil`).
    public var format: String? = nil
    /// Grows with its content (a multiline text view).
    public var isExpanding: Bool = false
    /// Text is kept as typed, leading and trailing white space included: the
    /// kind's `trim` step is left out (inferred forms, docs/fidelity.md).
    public var keepsWhitespace: Bool = false
    /// For a foreign-key field: the referenced table's column that shows a
    /// row (its picker's label, the label beside the key in `show` and
    /// `list`); `nil` infers one (docs/spec.md, "Foreign keys").
    public var labelColumn: String? = nil
    public var hiddenWhen: Condition? = nil
    public var disabledWhen: Condition? = nil
    /// Rules beyond those implied by `isRequired` and the kind.
    public var rules: [Rule] = []
    /// Transforms applied after the kind's defaults.
    public var transforms: [Transform] = []
    /// Message overrides for this field, by error code.
    public var messages: [String: String] = [:]
    /// When this field's checks run (the form's timing when `nil`).
    public var validationTiming: ValidationTiming? = nil
    /// Set by the DSL when a key path's coding key could not be found: the key
    /// path as written (`\Profile.nickname`). Such a form fails
    /// `Form.checkDefinition()` and cannot be bound.
    public internal(set) var unresolvedKeyPath: String? = nil

    public init(key: String, label: String? = nil, kind: FieldKind = .text) {
        self.key = key
        self.label = label ?? key
        self.kind = kind
        self.enabledWhenNotEditing = kind == .action
        self.isSecure = kind == .password
        self.isStored = !kind.isDisplayOnly
    }

    /// Holds a value that is validated (display-only kinds do not).
    public var holdsValue: Bool { !kind.isDisplayOnly }
}
