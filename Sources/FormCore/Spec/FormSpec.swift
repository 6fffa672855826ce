import FormBasics
public import FoundationEssentials

/// Reads and writes forms as JSON specs (format version 1, see `docs/spec.md`).
///
/// ```swift
/// let form = try FormSpec.decode(Data(contentsOf: url))
/// let data = FormSpec.encode(form)     // pretty, sorted keys; decodes to an equal form
/// ```
///
/// Errors name the JSON path of the mistake (`SpecError.path`). Custom rules
/// and custom transforms are code, which a spec cannot hold: `encode` refuses
/// such a form, naming each (`unwritableParts(of:)`), rather than drop them.
public enum FormSpec {
    /// The spec format this FormStore reads and writes (`"formstore": 1`).
    public static let formatVersion = 1

    static let formKeys = ["formstore", "name", "title", "version", "mode", "table", "editsOtherTable", "primaryKey", "versionColumn",
                           "validation", "unsavedChangesWarning", "messages", "kindMessages", "rules", "sections"]
    static let sectionKeys = ["title", "fields", "group"]
    static let fieldKeys = ["key", "label", "kind", "placeholder", "default", "required", "notNull", "readOnly",
                            "enabledWhenNotEditing", "secure", "stored", "hint", "choices", "style", "allowDeselect",
                            "suggestions", "format", "expanding", "keepWhitespace", "labelColumn", "minLength", "maxLength", "pattern", "patternName",
                            "email", "min", "max", "oneOfChoices", "maxFutureDays", "equalTo", "transforms",
                            "messages", "validation", "hiddenWhen", "disabledWhen"]
    static let ruleKeys = ["type", "field", "other", "code", "message"]
    static let choiceKeys = ["value", "label", "disabled"]

    static let kinds = FieldKind.allCases.map { ($0.rawValue, $0) }
    static let modes = EditMode.allCases.map { ($0.rawValue, $0) }
    static let timings: [(String, ValidationTiming)] = [("change", .onChange), ("commit", .onCommit), ("save", .onSave)]
    static let choiceStyles: [(String, ChoiceStyle)] = [("picker", .picker), ("segmented", .segmented), ("buttons", .buttons)]
    static let actionStyles: [(String, ActionStyle)] = [("normal", .normal), ("destructive", .destructive), ("big", .big)]
    static let namedTransforms: [(String, Transform)] = [
        ("trim", .trim), ("hex", .hex), ("blobLiteral", .blobLiteral), ("removeSpaces", .removeSpaces), ("uppercase", .uppercase), ("lowercase", .lowercase),
        ("digitsOnly", .digitsOnly), ("phone", .phone), ("integer", .integer), ("decimal", .decimal),
        ("yesNo", .yesNo), ("choiceLabel", .choiceLabel), ("list", .list),
    ]

    /// Reads a spec.
    ///
    /// A file that is not a spec (not JSON, or JSON without a `"formstore"`
    /// key) is refused without quoting any of its text: a spec folder may hold
    /// a file someone put there, and its contents (a password hash, say) must
    /// not reach a terminal or a log through the error.
    /// - throws: `SpecError` naming the path of the first mistake.
    public static func decode(_ data: Data) throws(SpecError) -> Form {
        let root: JSONNode
        do {
            root = try JSONReader.parse(data)
        } catch {
            // The reason only: the message may quote the file's text.
            throw SpecError(path: "$", message: "not a FormStore spec: invalid JSON at line \(error.line), "
                            + "column \(error.column) (\(error.reason))")
        }
        guard case .object(let members) = root, members.contains(where: { $0.key == "formstore" }) else {
            throw SpecError(path: "$", message: "not a FormStore spec: expected a JSON object with a \"formstore\" key")
        }
        let form = try readForm(SpecNode(node: root, path: "$"))
        if let problem = form.definitionProblems.first { throw problem }
        return form
    }

    /// Writes a spec: pretty-printed, keys sorted, defaults left out; it
    /// decodes to an equal form.
    ///
    /// - throws: `SpecError` for the first part a spec cannot hold (see
    ///   `unwritableParts(of:)`): written without it, the form would read back different.
    public static func encode(_ form: Form) throws(SpecError) -> Data {
        if let first = unwritableParts(of: form).first { throw first }
        return node(for: form).serialized()
    }

    /// The parts of a form that are code (custom rules and transforms), each
    /// with its path in spec notation and its name: what `encode` refuses.
    ///
    /// ```swift
    /// FormSpec.unwritableParts(of: form).map(\.description)
    /// // ["$.sections[0].fields[1].rules (field \"sku\"): the custom rule \"checksum\" is code; a spec cannot hold it"]
    /// ```
    public static func unwritableParts(of form: Form) -> [SpecError] {
        var parts: [SpecError] = []
        for (s, section) in form.sections.enumerated() {
            for (f, field) in section.fields.enumerated() {
                let at = "$.sections[\(s)].fields[\(f)]"
                for case .custom(let rule) in field.rules {
                    var error = SpecError(path: "\(at).rules", message: "the custom rule \(rule.code.quoted) is code; a spec cannot hold it")
                    error.field = field.key
                    parts.append(error)
                }
                for case .custom(let transform) in field.transforms {
                    var error = SpecError(path: "\(at).transforms",
                                          message: "the custom transform \(transform.name.quoted) is code; a spec cannot hold it")
                    error.field = field.key
                    parts.append(error)
                }
            }
        }
        for (r, rule) in form.rules.enumerated() {
            if case .custom(let custom) = rule {
                parts.append(SpecError(path: "$.rules[\(r)]", message: "the custom rule \(custom.code.quoted) is code; a spec cannot hold it"))
            }
        }
        return parts
    }
}
