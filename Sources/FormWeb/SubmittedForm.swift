import FormCore
public import FoundationEssentials

/// A browser's `application/x-www-form-urlencoded` body: its members in
/// order, names repeated for checkbox groups and multiple selects.
///
/// ```swift
/// let body = SubmittedForm(urlencoded: Data("phone=555+123&_csrf=abc".utf8))
/// body.value("phone")  // "555 123"
/// ```
public struct SubmittedForm: Sendable, Hashable {
    public struct Member: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public private(set) var members: [Member]

    public init(members: [Member]) { self.members = members }

    /// Reads the body; `+` is a space and `%XX` a byte, and bytes that are not
    /// UTF-8 become U+FFFD (a browser never sends them; a hostile client may).
    public init(urlencoded body: Data) {
        members = body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            return Member(name: Self.decode(parts[0]), value: parts.count > 1 ? Self.decode(parts[1]) : "")
        }
    }

    /// Reads the body as a browser writes it, or `nil` when it is not that:
    /// a `%` without two hex digits after it, or bytes that are not UTF-8
    /// (which `init(urlencoded:)` takes as U+FFFD, saving a hostile client's
    /// garbage as text).
    public init?(strictly body: Data) {
        var members: [Member] = []
        for pair in body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0], strictly: true),
                  let value = parts.count > 1 ? Self.decode(parts[1], strictly: true) : "" else { return nil }
            members.append(Member(name: name, value: value))
        }
        self.members = members
    }

    /// The first value of `name`.
    public func value(_ name: String) -> String? { members.first { $0.name == name }?.value }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] { members.filter { $0.name == name }.map(\.value) }

    /// Whether the body names `name` at all.
    public func contains(_ name: String) -> Bool { members.contains { $0.name == name } }

    static func decode(_ bytes: Data.SubSequence) -> String {
        decode(bytes, strictly: false)!
    }

    /// `decode(_:)`; `strictly`, nil for a malformed `%` escape or bytes that are not UTF-8.
    static func decode(_ bytes: Data.SubSequence, strictly: Bool) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                out.append(0x20)
            } else if byte == UInt8(ascii: "%"), bytes.distance(from: index, to: bytes.endIndex) > 2,
                      let high = HexDigit.value(bytes[index + 1]), let low = HexDigit.value(bytes[index + 2]) {
                out.append(high << 4 | low)
                index += 2
            } else if byte == UInt8(ascii: "%"), strictly {
                return nil
            } else {
                out.append(byte)
            }
            index += 1
        }
        return strictly ? String(validating: out, as: UTF8.self) : String(decoding: out, as: UTF8.self)
    }
}
