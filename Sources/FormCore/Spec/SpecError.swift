/// Why a JSON form spec was rejected, and where: `path` is a JSONPath-like
/// location such as `$.sections[1].fields[2].kind`.
///
/// ```swift
/// do { _ = try FormSpec.decode(data) }
/// catch { print(error) }  // $.sections[0].fields[1].kind: unknown kind "colour"; expected one of text, name, ...
/// ```
public struct SpecError: Error, Sendable, Hashable, CustomStringConvertible {
    public let path: String
    public let message: String
    /// The key of the field whose definition holds the mistake, when one does:
    /// a form built with the DSL has no spec to point into, so the error names it.
    public internal(set) var field: String? = nil

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String {
        guard let field, !field.isEmpty else { return "\(path): \(message)" }
        return "\(path) (field \(field.quoted)): \(message)"
    }

    // The field is a convenience derived from the path: equal paths are equal errors.
    public static func == (a: SpecError, b: SpecError) -> Bool { a.path == b.path && a.message == b.message }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(message)
    }
}

/// A node of the spec being read, with its path for errors.
struct SpecNode {
    let node: JSONNode
    let path: String

    func fail(_ message: String) -> SpecError { SpecError(path: path, message: message) }

    private func mismatch(_ expected: String) -> SpecError {
        fail("expected \(expected), found \(node.typeName)")
    }

    func string() throws(SpecError) -> String {
        guard case .string(let s) = node else { throw mismatch("a string") }
        return s
    }

    func bool() throws(SpecError) -> Bool {
        guard case .bool(let b) = node else { throw mismatch("true or false") }
        return b
    }

    func int() throws(SpecError) -> Int {
        guard case .number(_, let integer) = node, let integer, let exact = Int(exactly: integer) else {
            throw mismatch("an integer")
        }
        return exact
    }

    func number() throws(SpecError) -> Double {
        guard case .number(let d, _) = node else { throw mismatch("a number") }
        return d
    }

    func array() throws(SpecError) -> [SpecNode] {
        guard case .array(let items) = node else { throw mismatch("an array") }
        return items.enumerated().map { SpecNode(node: $1, path: "\(path)[\($0)]") }
    }

    func strings() throws(SpecError) -> [String] {
        var result: [String] = []
        for item in try array() { result.append(try item.string()) }
        return result
    }

    /// The node as an object whose keys must all be among `allowed`.
    func object(allowed: [String]) throws(SpecError) -> SpecObject {
        guard case .object(let members) = node else { throw mismatch("an object") }
        for member in members where !allowed.contains(member.key) {
            var message = "unknown key \(member.key.quoted)"
            if let near = SpecNode.nearest(member.key, in: allowed) {
                message += "; did you mean \(near.quoted)?"
            } else {
                message += "; expected one of \(allowed.joined(separator: ", "))"
            }
            throw SpecError(path: SpecObject.childPath(path, member.key), message: message)
        }
        return SpecObject(members: members, path: path)
    }

    /// One of a fixed set of words.
    func word<T>(_ options: [(String, T)], what: String) throws(SpecError) -> T {
        let text = try string()
        if let match = options.first(where: { $0.0 == text }) { return match.1 }
        var message = "unknown \(what) \(text.quoted); expected one of \(options.map(\.0).joined(separator: ", "))"
        if let near = SpecNode.nearest(text, in: options.map(\.0)) { message += " (did you mean \(near.quoted)?)" }
        throw fail(message)
    }

    /// The closest candidate within a small edit distance, for "did you mean".
    static func nearest(_ word: String, in candidates: [String]) -> String? {
        let limit = word.count <= 3 ? 1 : min(3, max(2, word.count / 3))
        let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= limit else { return nil }
        return best.0
    }

    private static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let saved = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = saved
            }
        }
        return a.isEmpty ? b.count : row[b.count]
    }
}

/// An object of the spec being read.
struct SpecObject {
    let members: [JSONNode.Member]
    let path: String

    static func childPath(_ path: String, _ key: String) -> String { "\(path).\(key)" }

    subscript(key: String) -> SpecNode? {
        members.first { $0.key == key }.map { SpecNode(node: $0.value, path: SpecObject.childPath(path, key)) }
    }

    func required(_ key: String) throws(SpecError) -> SpecNode {
        guard let node = self[key] else {
            throw SpecError(path: path, message: "missing required key \(key.quoted)")
        }
        return node
    }

    var keys: [String] { members.map(\.key) }
}
