public import FoundationEssentials

/// A dictionary as a form model, reached by dotted key paths into nested
/// dictionaries (`"address.city"`), as MYSForms binds to an `NSDictionary`.
///
/// ```swift
/// var model = DictionaryModel(["name": "Ada", "address.city": "Paris"])
/// try model.setValue("London", forKey: "address.city")
/// model.value(forKey: "address.city")   // .text("London")
/// ```
///
/// The nesting is kept as a tree of `Node`s (no `Any`): a key is either a
/// value or a dictionary. A blank model accepts any key unless
/// `allowsNewKeys` is false.
public struct DictionaryModel: FormModel, Sendable, Hashable {
    /// One entry of the tree: a value, or a nested dictionary.
    public indirect enum Node: Sendable, Hashable {
        case value(FieldValue)
        case object([String: Node])
    }

    public private(set) var root: [String: Node] = [:]
    /// Whether fields may be bound to keys the dictionary does not hold yet.
    public var allowsNewKeys: Bool

    /// A model from dotted keys: `["address.city": "Paris"]` nests `city` in `address`.
    public init(_ values: [String: FieldValue] = [:], allowsNewKeys: Bool = true) {
        self.allowsNewKeys = allowsNewKeys
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            DictionaryModel.put(value, at: key.split(separator: ".").map(String.init), in: &root)
        }
    }

    /// A model from a JSON object; nested objects become nested dictionaries.
    /// - throws: when the data is not a JSON object.
    public init(json data: Data, allowsNewKeys: Bool = true) throws {
        guard case .object(let members) = try JSONReader.parse(data) else {
            throw ModelError.typeMismatch("$", "the JSON is not an object")
        }
        self.allowsNewKeys = allowsNewKeys
        self.root = DictionaryModel.nodes(members)
    }

    /// Every value by dotted key.
    public var values: [String: FieldValue] {
        var result: [String: FieldValue] = [:]
        func walk(_ nodes: [String: Node], _ prefix: String) {
            for (name, node) in nodes {
                switch node {
                case .value(let v): result[joinPath(prefix, name)] = v
                case .object(let inner): walk(inner, joinPath(prefix, name))
                }
            }
        }
        walk(root, "")
        return result
    }

    /// The document as compact JSON with its keys sorted (a JSON column's text):
    /// dates as ISO-8601, data as base64, as `FieldValue`'s JSON everywhere.
    public var jsonText: String {
        func write(_ nodes: [String: Node], into out: inout String) {
            out += "{"
            for (i, (name, node)) in nodes.sorted(by: { $0.key < $1.key }).enumerated() {
                if i > 0 { out += "," }
                out += JSONText.quoted(name) + ":"
                switch node {
                case .value(let v): out += v.jsonLiteral
                case .object(let inner): write(inner, into: &out)
                }
            }
            out += "}"
        }
        var out = ""
        write(root, into: &out)
        return out
    }

    public func value(forKey key: String) -> FieldValue {
        if case .value(let v)? = node(at: key) { return v }
        return .null
    }

    public mutating func setValue(_ value: FieldValue, forKey key: String) throws {
        if !allowsNewKeys, !allKeys.contains(key) { throw ModelError.missingKey(key) }
        let parts = key.split(separator: ".").map(String.init)
        if let blocked = blockingPrefix(parts) { throw ModelError.notAnObject(key, at: blocked) }
        DictionaryModel.put(value, at: parts, in: &root)
    }

    public var allKeys: [String] { values.keys.sorted() }

    public func hasKey(_ key: String) -> Bool {
        if !allowsNewKeys { return allKeys.contains(key) }
        let parts = key.split(separator: ".").map(String.init)
        if case .object? = node(at: key) { return false }
        return !parts.isEmpty && blockingPrefix(parts) == nil
    }

    /// Removes a value (and dictionaries it leaves empty).
    public mutating func removeValue(forKey key: String) {
        func remove(_ parts: ArraySlice<String>, _ nodes: inout [String: Node]) {
            guard let first = parts.first else { return }
            if parts.count == 1 { nodes[first] = nil; return }
            guard case .object(var inner)? = nodes[first] else { return }
            remove(parts.dropFirst(), &inner)
            nodes[first] = inner.isEmpty ? nil : .object(inner)
        }
        remove(ArraySlice(key.split(separator: ".").map(String.init)), &root)
    }

    private func node(at key: String) -> Node? {
        var current: Node = .object(root)
        for part in key.split(separator: ".") {
            guard case .object(let inner) = current, let next = inner[String(part)] else { return nil }
            current = next
        }
        return current
    }

    /// The first proper prefix of `parts` that holds a value rather than a dictionary.
    private func blockingPrefix(_ parts: [String]) -> String? {
        var nodes = root
        for (i, part) in parts.dropLast().enumerated() {
            switch nodes[part] {
            case .value?: return parts[...i].joined(separator: ".")
            case .object(let inner)?: nodes = inner
            case nil: return nil
            }
        }
        return nil
    }

    private static func put(_ value: FieldValue, at parts: [String], in nodes: inout [String: Node]) {
        guard let first = parts.first else { return }
        if parts.count == 1 { nodes[first] = .value(value); return }
        var inner: [String: Node]
        if case .object(let existing)? = nodes[first] { inner = existing } else { inner = [:] }
        put(value, at: Array(parts.dropFirst()), in: &inner)
        nodes[first] = .object(inner)
    }

    private static func nodes(_ members: [JSONNode.Member]) -> [String: Node] {
        var nodes: [String: Node] = [:]
        for member in members {
            if case .object(let nested) = member.value {
                nodes[member.key] = .object(Self.nodes(nested))
            } else {
                nodes[member.key] = .value(FieldValue(jsonNode: member.value))
            }
        }
        return nodes
    }
}
