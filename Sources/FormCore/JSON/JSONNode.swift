import FoundationEssentials

/// A JSON document as `JSONReader` reads it: objects keep their members
/// in order (and duplicates are caught), numbers keep whether they were
/// written as integers. `JSONSerialization` loses both.
public enum JSONNode: Sendable, Equatable {
    case null
    case bool(Bool)
    /// The value, and the integer when the literal was one (`3`, not `3.0`).
    case number(Double, integer: Int64?)
    case string(String)
    case array([JSONNode])
    case object([Member])

    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: JSONNode
        /// The value's JSON text as it was written, without the space between
        /// its tokens, when it is an object or an array: a document is kept
        /// as that text, its numbers as written (`1.50`, `2e3`), where
        /// `JSONNode.compactText` spells them anew (`1.5`, `2000.0`).
        public var text: String?

        public init(key: String, value: JSONNode, text: String? = nil) {
            self.key = key
            self.value = value
            self.text = text
        }

        /// The member's value as a field holds it (`JSONNode.fieldValue`),
        /// a document as the text it was written in.
        public var fieldValue: FieldValue? {
            if value.isDocument, let text { return .text(text) }
            return value.fieldValue
        }

        /// Equal by key and value: the same document spelled two ways is one value.
        public static func == (a: Member, b: Member) -> Bool { a.key == b.key && a.value == b.value }
    }

    /// What a spec error calls this node's type.
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    static func integer(_ i: Int64) -> JSONNode { .number(Double(i), integer: i) }
    static func double(_ d: Double) -> JSONNode {
        .number(d, integer: d.rounded() == d && abs(d) < 9e15 ? Int64(d) : nil)
    }
}

extension JSONNode {
    /// Whether this is the same document as `other`, as JSON values compare:
    /// objects by their members in any order (as PostgreSQL's `jsonb` keeps
    /// them), arrays in order, numbers by value (`1.0` is `1`). `==` compares
    /// objects member by member in order.
    public func isSameDocument(as other: JSONNode) -> Bool {
        switch (self, other) {
        case (.number(let a, _), .number(let b, _)): return a == b
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isSameDocument(as: $1) }
        case (.object(let a), .object(let b)):
            // `JSONReader` refuses a repeated key, so each member is its key's only one.
            let second = Dictionary(b.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
            return a.count == second.count
                && a.allSatisfy { member in second[member.key].map(member.value.isSameDocument(as:)) ?? false }
        default: return self == other
        }
    }
}

// MARK: - Writing

extension JSONNode {
    /// Pretty JSON (two-space indent) with object keys sorted.
    func serialized() -> Data {
        var out = ""
        write(into: &out, indent: "")
        out += "\n"
        return Data(out.utf8)
    }

    private func write(into out: inout String, indent: String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let d, let integer):
            if let integer { out += String(integer) } else { out += d.isFinite ? String(d) : "null" }
        case .string(let s): out += JSONNode.escaped(s)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            if items.allSatisfy(\.isScalar), items.count <= 8 {
                out += "["
                for (i, item) in items.enumerated() {
                    if i > 0 { out += ", " }
                    item.write(into: &out, indent: indent)
                }
                out += "]"
                return
            }
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += indent + "  "
                item.write(into: &out, indent: indent + "  ")
                out += i < items.count - 1 ? ",\n" : "\n"
            }
            out += indent + "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{\n"
            let sorted = members.sorted { $0.key < $1.key }
            for (i, member) in sorted.enumerated() {
                out += indent + "  " + JSONNode.escaped(member.key) + ": "
                member.value.write(into: &out, indent: indent + "  ")
                out += i < sorted.count - 1 ? ",\n" : "\n"
            }
            out += indent + "}"
        }
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }

    static func escaped(_ s: String) -> String { JSONText.quoted(s) }
}
