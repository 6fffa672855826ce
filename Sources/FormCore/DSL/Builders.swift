/// Collects the sections of a `Form { ... }`.
@resultBuilder
public enum SectionBuilder {
    public static func buildExpression(_ section: Section) -> [Section] { [section] }
    public static func buildExpression(_ sections: [Section]) -> [Section] { sections }
    public static func buildBlock(_ parts: [Section]...) -> [Section] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [Section]?) -> [Section] { part ?? [] }
    public static func buildEither(first part: [Section]) -> [Section] { part }
    public static func buildEither(second part: [Section]) -> [Section] { part }
    public static func buildArray(_ parts: [[Section]]) -> [Section] { parts.flatMap { $0 } }
}

/// Collects the fields of a `Section { ... }`.
@resultBuilder
public enum FieldBuilder {
    public static func buildExpression(_ field: Field) -> [Field] { [field] }
    public static func buildExpression(_ fields: [Field]) -> [Field] { fields }
    public static func buildBlock(_ parts: [Field]...) -> [Field] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [Field]?) -> [Field] { part ?? [] }
    public static func buildEither(first part: [Field]) -> [Field] { part }
    public static func buildEither(second part: [Field]) -> [Field] { part }
    public static func buildArray(_ parts: [[Field]]) -> [Field] { parts.flatMap { $0 } }
}

extension Section {
    /// A titled group of fields.
    ///
    /// ```swift
    /// Section("Address") {
    ///     Field("Street", \Registration.street)
    ///     Field("City", \Registration.city).required()
    /// }
    /// ```
    public init(_ title: String? = nil, @FieldBuilder fields: () -> [Field]) {
        self.init(title, fields: fields())
    }
}

extension Form {
    /// A form over a dictionary or any model keyed by strings.
    ///
    /// ```swift
    /// let form = Form("settings", title: "Settings") {
    ///     Section { Field("Theme", key: "theme", kind: .choice).choices(["light", "dark"]) }
    /// }
    /// ```
    public init(_ name: String, title: String? = nil, @SectionBuilder sections: () -> [Section]) {
        self.init(name: name, title: title, sections: sections())
    }

    /// A form over a Codable model; its fields are usually built from key
    /// paths on `model` (`Field("Age", \Profile.age)`).
    ///
    /// A key path whose coding key cannot be found leaves the field marked;
    /// `checkDefinition()` (and `FormBinding`) then fail naming the key path.
    public init<Model: Codable>(_ name: String, title: String? = nil, for model: Model.Type,
                                @SectionBuilder sections: () -> [Section]) {
        self.init(name: name, title: title, sections: sections())
    }

    /// The same form with `change` applied.
    func with(_ change: (inout Form) -> Void) -> Form {
        var copy = self
        change(&copy)
        return copy
    }

    public func mode(_ mode: EditMode) -> Form { with { $0.mode = mode } }
    public func version(_ version: Int) -> Form { with { $0.version = version } }
    public func table(_ table: String) -> Form { with { $0.table = table } }
    /// Says that a table not named like the form is meant (see `Form.editsOtherTable`).
    public func editsOtherTable(_ value: Bool = true) -> Form { with { $0.editsOtherTable = value } }
    public func primaryKey(_ columns: String...) -> Form { with { $0.primaryKey = columns } }
    public func versionColumn(_ column: String) -> Form { with { $0.versionColumn = column } }
    public func rule(_ rule: FormRule) -> Form { with { $0.rules.append(rule) } }
    /// The form-wide message for an error code.
    public func message(_ code: String, _ text: String) -> Form { with { $0.messages.form[code] = text } }
    /// The message for an error code on every field of `kind`.
    public func message(_ code: String, _ text: String, kind: FieldKind) -> Form {
        with { $0.messages.kinds[kind, default: [:]][code] = text }
    }
    /// The warning before unsaved changes are discarded; `nil` turns it off.
    public func unsavedChangesWarning(_ text: String?) -> Form { with { $0.unsavedChangesWarning = text } }
    public func validationTiming(_ timing: ValidationTiming) -> Form { with { $0.validationTiming = timing } }
}
