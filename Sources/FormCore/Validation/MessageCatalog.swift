/// Message templates by error code, with `{placeholder}`s filled in when an
/// error is reported: `{label}` (the field's label), `{min}`, `{max}`,
/// `{other}` (another field's label), `{name}` (a pattern's name), `{days}`,
/// `{kind}` (what a value of the wrong kind is: `a number`, `text` ...).
///
/// ```swift
/// MessageCatalog.english.template(for: "required")   // "{label} is required"
/// ```
///
/// The most specific message wins: the field's own (`Field.messages`) > its
/// kind's (`MessageOverrides.kinds`) > the form's (`MessageOverrides.form`) >
/// the rule's own (`CustomRule.message`, a `FormRule`'s message) > the catalog.
public struct MessageCatalog: Sendable, Hashable {
    public var templates: [String: String]

    public init(templates: [String: String]) {
        self.templates = templates
    }

    /// The English defaults.
    public static let english = MessageCatalog(templates: [
        "required": "{label} is required",
        "minLength": "{label} must be at least {min} characters",
        "maxLength": "{label} must be at most {max} characters",
        "pattern": "{label} is not a valid {name}",
        "pattern.unnamed": "{label} is not in the expected format",
        "pattern.budget": "{label} is too long or too complex to check against its pattern",
        "email": "{label} is not a valid e-mail address",
        "range": "{label} must be between {min} and {max}",
        "range.min": "{label} must be at least {min}",
        "range.max": "{label} must be at most {max}",
        "choice": "{label} is not one of the choices",
        "choice.item": "{value} is not one of the choices for {label}",
        "equalTo": "{label} must match {other}",
        "mismatch": "{label} does not match {other}",
        "maxFutureDays": "{label} must be at most {days} days in the future",
        "maxFutureDays.none": "{label} must not be in the future",
        "number": "{label} is not a number",
        "number.whole": "{label} must be a whole number",
        "number.range": "{label} must be between -9223372036854775808 and 9223372036854775807",
        "number.tiny": "{label} is too close to 0 to be stored (it would be 0)",
        "number.exact": "{label} has more digits than a number can hold exactly",
        "date": "{label} is not a valid date",
        "date.time": "{label} is not a valid time",
        "date.datetime": "{label} is not a valid date and time",
        "date.fraction": "{label} keeps time to the microsecond: at most 6 digits after the seconds",
        "phone": "{label} is not a valid phone number",
        "bool": "{label} must be yes or no",
        "hex": "{label} must be bytes in hex, such as x'CAFE'",
        "state": "{label} must be a two-letter state abbreviation",
        "zip": "{label} must be a 5-digit ZIP code",
        "url": "{label} is not a valid URL",
        "invalid": "{label} is not valid",
        "invalid.form": "{label} is not valid: it fails the rule {code}",
        "kind": "{label} cannot hold {kind}",
    ])

    /// The template for a code (or one of its variants such as `range.min`);
    /// unknown codes get the `invalid` template.
    public func template(for code: String) -> String {
        templates[code] ?? templates["invalid"] ?? "{label} is not valid"
    }

    /// Whether the catalog has a message of its own for `code`.
    public func hasTemplate(_ code: String) -> Bool { templates[code] != nil }

    /// The message for a failure of `code` on `field`, most specific first.
    /// - parameter variant: the catalog key to use instead of `code` for the
    ///   default (`range.min` when a range has no maximum).
    public func resolve(code: String, field: Field?, overrides: MessageOverrides, ruleMessage: String?,
                        parameters: [String: String], variant: String? = nil) -> String {
        let template = field?.messages[code]
            ?? field.flatMap { overrides.kinds[$0.kind]?[code] }
            ?? overrides.form[code]
            ?? ruleMessage
            ?? self.template(for: variant ?? code)
        var values = parameters
        if values["label"] == nil { values["label"] = field?.label ?? "" }
        return MessageCatalog.fill(template, with: values)
    }

    /// Replaces each `{name}` with its value; unknown placeholders stay as written.
    public static func fill(_ template: String, with values: [String: String]) -> String {
        // The braces are found among the bytes, not the Characters: breaking
        // the template into graphemes was most of a failed keystroke's cost
        // (issue 14). A brace's byte is a whole scalar, so its index slices the text.
        var result = ""
        var rest = Substring(template)
        while let open = rest.utf8.firstIndex(of: UInt8(ascii: "{")) {
            result += rest[..<open]
            guard let close = rest.utf8[open...].firstIndex(of: UInt8(ascii: "}")) else {
                result += rest[open...]
                return result
            }
            let name = String(rest[rest.utf8.index(after: open)..<close])
            result += values[name] ?? "{\(name)}"
            rest = rest[rest.utf8.index(after: close)...]
        }
        return result + rest
    }
}
