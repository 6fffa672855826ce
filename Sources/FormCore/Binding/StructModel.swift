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

    public mutating func setValue(_ value: FieldValue, forKey key: String) throws {
        var values = try ModelCoder.encode(model)
        guard values[key] != nil else { throw ModelError.missingKey(key) }
        values[key] = value
        do {
            // Arrays of structs (a group's rows) have no FieldValue: carried over as rows.
            model = try ModelCoder.decode(Model.self, from: values, rows: try ModelCoder.encodeRows(model))
        } catch let error as DecodingError {
            throw ModelError.typeMismatch(key, StructModel.describe(error))
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
