/// An operation a session refused, with a one-line reason a person can act on.
///
/// ```swift
/// do { try session.set("firstName", input: "Ann") }
/// catch let error as SessionError where error.reason == .modeForbids { print(error) }
/// ```
public struct SessionError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// The edit mode does not allow the operation now.
        case modeForbids
        /// The field is read-only, disabled or display-only.
        case fieldNotEditable
        /// No field with that key on the form.
        case unknownField
        /// The record does not exist (or no longer does).
        case notFound
        /// The draft cannot be used with this session.
        case draftMismatch
    }

    public let reason: Reason
    public let message: String
    public let field: String?

    public var description: String { message }

    static func mode(_ message: String) -> SessionError {
        SessionError(reason: .modeForbids, message: message, field: nil)
    }

    static func notEditable(_ field: Field, _ why: String) -> SessionError {
        SessionError(reason: .fieldNotEditable, message: "\(field.label) (\(field.key)) \(why)", field: field.key)
    }

    static func unknownField(_ key: String, form: Form) -> SessionError {
        SessionError(reason: .unknownField, message: "form \(form.name) has no field '\(key)'", field: key)
    }

    static func notFound(_ form: Form, _ key: RecordKey) -> SessionError {
        SessionError(reason: .notFound, message: "\(form.name): no record with key \(key)", field: nil)
    }
}
