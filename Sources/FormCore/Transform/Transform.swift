/// One step between what a person types (input) and what the model holds.
/// Steps compose: parsing runs them first to last, formatting last to first.
///
/// A field's steps are its kind's defaults (see `FieldKind.defaultTransforms`)
/// followed by its own.
public enum Transform: Sendable, Hashable {
    case trim
    case removeSpaces
    case uppercase
    case lowercase
    case maxLength(Int)
    case digitsOnly
    /// Digits ⇄ `(xxx) xxx-xxxx`.
    case phone
    /// Text ⇄ integer (locale-independent).
    case integer
    /// Text ⇄ decimal number (locale-independent, `.` as separator).
    case decimal
    /// Text ⇄ date, with a format such as `MM/dd/yyyy`.
    case date(format: String)
    /// A choice's label ⇄ its value.
    case choiceLabel
    /// `yes`/`no` (and `true`/`false`, `1`/`0`, `on`/`off`) ⇄ Bool.
    case yesNo
    /// Comma-separated text ⇄ a list (multichoice).
    case list
    /// Hex text (`x'CAFE'`, `\xCAFE`, `0xCAFE` or bare digits) ⇄ bytes: a BLOB typed in.
    case hex
    /// Bytes typed as they are shown, `x'CAFE'` ⇄ bytes; any other input left
    /// as it is: a column that takes any value, where `CAFE` and `1234` stay what they are.
    case blobLiteral
    case custom(CustomTransform)
}

/// A transform written as closures. Two are equal when their names are.
public struct CustomTransform: Sendable, Hashable {
    public let name: String
    /// Input towards the model; throw a `FieldError` (field may be nil) for bad input.
    public let parse: @Sendable (FieldValue) throws -> FieldValue
    /// Model towards what is shown.
    public let format: @Sendable (FieldValue) -> FieldValue

    public init(name: String,
                parse: @escaping @Sendable (FieldValue) throws -> FieldValue,
                format: @escaping @Sendable (FieldValue) -> FieldValue = { $0 }) {
        self.name = name
        self.parse = parse
        self.format = format
    }

    public static func == (a: CustomTransform, b: CustomTransform) -> Bool { a.name == b.name }
    public func hash(into h: inout Hasher) { h.combine(name) }
}
