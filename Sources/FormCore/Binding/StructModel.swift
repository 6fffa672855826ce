/// A Codable struct as a form model: keys are its coding keys (nested structs'
/// keys dotted), values go through `ModelCoder`.
///
/// ```swift
/// var profile = StructModel(Profile(firstName: "Ada", age: nil, newsletter: false, foods: []))
/// try profile.setValue(.int(36), forKey: "age")
/// profile.model.age            // 36
/// profile[\.firstName] = "Grace"
/// ```
///
/// `Sendable` when the struct is.
public struct StructModel<Model: Codable>: FormModel {
    public var model: Model

    public init(_ model: Model) {
        self.model = model
    }

    /// Typed access through a key path.
    public subscript<Value>(keyPath: WritableKeyPath<Model, Value>) -> Value {
        get { model[keyPath: keyPath] }
        set { model[keyPath: keyPath] = newValue }
    }

    public func value(forKey key: String) -> FieldValue {
        ((try? ModelCoder.encode(model)) ?? [:])[key] ?? .null
    }

    /// Tried on a copy: a property that is no `Optional` refuses `.null`.
    public func acceptsNull(forKey key: String) -> Bool {
        var copy = self
        return (try? copy.setValue(.null, forKey: key)) != nil
    }

    public mutating func setValue(_ value: FieldValue, forKey key: String) throws {
        var values = try ModelCoder.encode(model)
        guard values[key] != nil else { throw ModelError.missingKey(key) }
        let held = values[key]
        values[key] = value
        // Arrays of structs (a group's rows) have no FieldValue: carried over as rows.
        let rows = try ModelCoder.encodeRows(model)
        do {
            model = try ModelCoder.decode(Model.self, from: values, rows: rows)
        } catch let error as DecodingError {
            // Nothing, for a `String` or an array that is no Optional, is its empty value.
            if value == .null, let empty = held.flatMap(StructModel.emptyValue) {
                values[key] = empty
                if let decoded = try? ModelCoder.decode(Model.self, from: values, rows: rows) {
                    model = decoded
                    return
                }
            }
            throw ModelError.typeMismatch(key, StructModel.describe(error))
        }
    }

    /// The empty value of the kind `held` is: `""` for text, `[]` for a list.
    private static func emptyValue(_ held: FieldValue) -> FieldValue? {
        switch held {
        case .text: return .text("")
        case .list: return .list([])
        default: return nil
        }
    }

    public var allKeys: [String] {
        ((try? ModelCoder.encode(model)) ?? [:]).keys.sorted()
    }

    /// The coding key a key path reads (see `KeyPathResolver`).
    public static func key<Value: Codable>(for keyPath: WritableKeyPath<Model, Value>) -> String? {
        try? KeyPathResolver.key(for: keyPath).get()
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context),
             .keyNotFound(_, let context), .dataCorrupted(let context):
            return context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }
}

extension StructModel: Sendable where Model: Sendable {}
