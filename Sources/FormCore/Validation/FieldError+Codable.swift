/// A field error as JSON: `{"field": "title", "code": "required", "message": "…"}`,
/// `"field": null` for an error of the form as a whole (docs/service.md).
extension FieldError: Codable {
    private enum Keys: String, CodingKey { case field, code, message }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(field: try c.decodeIfPresent(String.self, forKey: .field),
                  code: try c.decode(String.self, forKey: .code),
                  message: try c.decode(String.self, forKey: .message))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        // Written even when nil: a reader tells a form error by `"field": null`, not by a missing key.
        try c.encode(field, forKey: .field)
        try c.encode(code, forKey: .code)
        try c.encode(message, forKey: .message)
    }
}
