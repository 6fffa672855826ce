public import FoundationEssentials
import Glibc

/// Drafts kept as files, one JSON file per draft in a private directory
/// (0700, files 0600). The fallback when the database cannot take a draft.
/// A directory that is a symbolic link, someone else's, or writable by
/// others is refused (`PrivateDirectory`).
public struct FileDraftStore: DraftStore {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// `$XDG_STATE_HOME/formstore`, else `$HOME/.local/state/formstore`, as
    /// the XDG base directories say. The home directory in the password
    /// database only when `HOME` is unset: FoundationEssentials asks that
    /// first, and reading /etc/passwd would cost every command's start (a
    /// store looks for its database's sidecar when it opens).
    /// The two variables are read with `getenv`, and the path is put together
    /// as text and made a URL once: the environment as a dictionary and
    /// `appendingPathComponent` cost more than the rest of `show` (docs/binary.md).
    public static var standard: FileDraftStore {
        FileDraftStore(directory: URL(fileURLWithPath: standardPath, isDirectory: true))
    }

    /// `standard`'s folder as a path. A relative `$XDG_STATE_HOME` is passed
    /// over, as the XDG base directories say (taken from the working folder,
    /// each folder a command ran in had drafts of its own).
    public static var standardPath: String {
        func variable(_ name: String) -> String? {
            getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        var base = variable("XDG_STATE_HOME").flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? variable("HOME").map { $0 + "/.local/state" }
            ?? FileManager.default.homeDirectoryForCurrentUser.path + "/.local/state"
        if !base.hasPrefix("/") { base = URL(fileURLWithPath: base, isDirectory: true).path }
        while base.hasSuffix("/") { base.removeLast() }
        return base + "/formstore"
    }

    public func path(for id: String) -> URL {
        // Ids are generated UUIDs; keep the file name safe whatever one holds.
        let safe = id.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }
        return directory.appendingPathComponent("draft-\(String(safe)).json")
    }

    public func writeDraft(_ draft: Draft) throws {
        try PrivateDirectory.prepare(directory)
        let url = path(for: draft.id)
        let temporary = directory.appendingPathComponent(".\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: try draft.encoded(),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: ["NSFilePath": temporary.path])
        }
        // rename(2) replaces atomically: a crash leaves the old draft or the new one.
        guard rename(temporary.path, url.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: ["NSFilePath": url.path])
        }
    }

    public func draft(id: String) throws -> Draft? {
        try PrivateDirectory.check(directory)
        guard let data = FileManager.default.contents(atPath: path(for: id).path) else { return nil }
        return try Draft(encoded: data)
    }

    public func drafts(form: String, key: RecordKey?) throws -> [Draft] {
        try drafts(form: form).filter { $0.recordKey == key }
    }

    public func drafts(form: String?) throws -> [Draft] {
        // A folder others can write may hold a draft someone planted.
        try PrivateDirectory.check(directory)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix("draft-") && $0.hasSuffix(".json") }
            .compactMap { name in
                FileManager.default.contents(atPath: directory.appendingPathComponent(name).path)
                    .flatMap { try? Draft(encoded: $0) }
            }
            .filter { form == nil || $0.form == form }
            .sorted { $0.updatedAt > $1.updatedAt }
    }

    public func deleteDraft(id: String) throws {
        let url = path(for: id)
        if FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.removeItem(at: url)
        }
    }

    @discardableResult
    public func deleteDrafts(updatedBefore date: Date) throws -> Int {
        let old = try drafts(form: nil).filter { $0.updatedAt < date }
        for draft in old { try deleteDraft(id: draft.id) }
        return old.count
    }
}
