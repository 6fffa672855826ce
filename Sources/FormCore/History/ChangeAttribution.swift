/// Who made a save and through what, as its history records it.
///
/// ```swift
/// session.attribution = ChangeAttribution(actor: user.id, via: .web)
/// ```
public struct ChangeAttribution: Sendable, Hashable, Codable {
    /// Who: the caller's name for the person or service (`nil` when nobody was named).
    public var actor: String?
    /// Through what: `command`, `web`, `library`, or a caller's own word.
    public var via: Channel

    public init(actor: String?, via: Channel) {
        self.actor = actor
        self.via = via
    }

    /// A save made through the library with nobody named: what a session records unless told otherwise.
    public static let library = ChangeAttribution(actor: nil, via: .library)

    /// The way a change came in; an open set of words, so a new face needs no new case.
    public struct Channel: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let command = Channel(rawValue: "command")
        public static let web = Channel(rawValue: "web")
        public static let library = Channel(rawValue: "library")

        public var description: String { rawValue }
    }
}
