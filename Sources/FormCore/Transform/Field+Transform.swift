import FormBasics
import FoundationEssentials
extension Field {
    /// The whole chain: the kind's defaults (with this field's date format,
    /// without `trim` when the field keeps white space), then the field's own transforms.
    public var allTransforms: [Transform] {
        let defaults = kind.defaultTransforms(format: format)
        return (keepsWhitespace ? defaults.filter { $0 != .trim } : defaults) + transforms
    }

    /// Whether typed hex is read as bytes (`hex`, `blobLiteral`: a BLOB or
    /// untyped column). A value that comes as JSON says its own class (bytes
    /// come as `{"$base64": …}`), so JSON's strings and numbers are taken as
    /// they are for such a field: `"CAFE"` stays text, `42` a number.
    public var readsHexAsBytes: Bool {
        transforms.contains(.hex) || transforms.contains(.blobLiteral)
            || kind.defaultTransforms(format: format).contains { $0 == .hex || $0 == .blobLiteral }
    }

    /// What every face prints for a secure field's value (`show`, `list`,
    /// the API's conflicts): read back as JSON, it is no value — the field
    /// keeps what it holds, a new record's takes its default.
    public static let shownSecret = "••••"

    /// Whether `value`, given as JSON for this field, is `shownSecret`: no value.
    public func isShownSecret(_ value: FieldValue?) -> Bool {
        guard isSecure, case .text(let text)? = value else { return false }
        return text == Self.shownSecret
    }

    /// Parses what a person typed into the model value, running every step
    /// first to last.
    ///
    /// ```swift
    /// Field(key: "age", kind: .integer).parse(" 42 ")   // .success(.int(42))
    /// Field(key: "age", kind: .integer).parse("old")    // .failure(code "number")
    /// ```
    /// The error names this field's key; its message comes from the field's
    /// own overrides or the catalog (`parse(_:in:)` also applies the form's).
    public func parse(_ input: String) -> Result<FieldValue, FieldError> {
        parse(input, messages: MessageOverrides())
    }

    /// Parses like `parse(_:)`, resolving an error's message through `form`'s overrides too.
    public func parse(_ input: String, in form: Form) -> Result<FieldValue, FieldError> {
        parse(input, messages: form.messages)
    }

    /// Parses a value that is not text (a bool from a switch, a list from a
    /// multiple select) through the same chain.
    public func parse(value input: FieldValue, in form: Form? = nil) -> Result<FieldValue, FieldError> {
        parse(input, messages: form?.messages ?? MessageOverrides())
    }

    private func parse(_ input: FieldValue, messages: MessageOverrides, typed: Bool = false) -> Result<FieldValue, FieldError> {
        parse(input, through: allTransforms, messages: messages, typed: typed)
    }

    /// Parses through `steps`, this field's `allTransforms` made once (`CompiledForm`).
    ///
    /// - parameter typed: the input is text a person typed; else a value
    ///   (JSON, an import's), which `blobLiteral` leaves as it is: a JSON
    ///   string `"x'0102'"` is that text, as export wrote it.
    func parse(_ input: FieldValue, through steps: [Transform], messages: MessageOverrides,
               typed: Bool = false) -> Result<FieldValue, FieldError> {
        var value = input
        do throws(FieldError) {
            for step in steps where typed || step != .blobLiteral { value = try step.parse(value, field: self) }
            return .success(value)
        } catch {
            let message = MessageCatalog.english.resolve(code: error.code, field: self, overrides: messages,
                                                         ruleMessage: error.message == MessageCatalog.english.template(for: error.code) ? nil : error.message,
                                                         parameters: [:])
            return .failure(FieldError(field: key, code: error.code, message: message))
        }
    }

    private func parse(_ input: String, messages: MessageOverrides) -> Result<FieldValue, FieldError> {
        parse(.text(input), messages: messages, typed: true)
    }

    /// The text shown for a model value, running every step last to first:
    /// lists as comma-separated labels, `.null` as "".
    ///
    /// ```swift
    /// Field(key: "phone", kind: .phone).format(.text("5551234567"))  // "(555) 123-4567"
    /// ```
    public func format(_ value: FieldValue) -> String {
        var shown = value
        for step in allTransforms.reversed() { shown = step.format(shown, field: self) }
        return FieldValue.plainText(shown)
    }
}

extension FieldValue {
    /// A value as plain, locale-independent text: lists comma-separated,
    /// `.null` empty, dates ISO-8601, bools `yes`/`no`, bytes as SQL writes
    /// them (`x'00FF'`, as a BLOB column's field shows them), which no one
    /// takes for text, where base64 (`AP8=`) looked like some.
    static func plainText(_ value: FieldValue) -> String {
        switch value {
        case .null: return ""
        case .text(let s): return s
        case .int(let i): return String(i)
        case .double(let d): return Transform.decimalText(d)
        case .bool(let b): return b ? "yes" : "no"
        case .date(let d): return ISO8601.shortDateTime(d)
        case .list(let l): return l.map(plainText).joined(separator: ", ")
        case .data(let d): return d.blobLiteral
        }
    }
}
