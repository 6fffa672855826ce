/// Why `FormSession.apply(json:)` changed nothing: every problem the body has,
/// one `FieldError` each (the body's own, such as malformed JSON, with
/// `field == nil`). Encodes as `{"errors": [FieldError…]}`, the shape of an
/// `invalid` outcome's errors (docs/service.md).
///
/// Codes: `json` (not a JSON object), `unknownField`, `hidden`, `disabled`,
/// `readOnly`, `notEditable` (display-only, or the edit mode forbids it now),
/// `kind` (a value the field cannot hold), and the parse codes of the field's
/// transforms (`date`, `phone`, `choice` …).
public struct JSONBodyError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    public var errors: [FieldError]

    public init(errors: [FieldError]) { self.errors = errors }

    public var description: String { errors.map(\.description).joined(separator: "; ") }

    static func malformed(_ message: String) -> JSONBodyError {
        JSONBodyError(errors: [FieldError(field: nil, code: "json", message: message)])
    }
}
