public import FoundationEssentials
import Glibc

/// A folder only its owner may change: FormStore's state directory
/// (`$XDG_STATE_HOME/formstore`), which holds drafts — record values — and
/// sidecar databases.
///
/// ```swift
/// try PrivateDirectory.prepare(FileDraftStore.standard.directory)   // created 0700 when missing
/// ```
///
/// Like ssh with `~/.ssh`, FormStore refuses a folder that is a symbolic link,
/// is owned by someone else, or that the group or others may write: there,
/// another user could plant a draft that a save would write into the
/// database, read values, or swap a file for a link.
public enum PrivateDirectory {
    /// Creates `directory` (0700) when missing, then checks it.
    /// - throws: `PrivateDirectoryError` when it is unsafe; a file error when it cannot be created.
    public static func prepare(_ directory: URL) throws {
        let path = directory.path
        var info = stat()
        if lstat(path, &info) != 0 && errno == ENOENT {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        try check(directory)
    }

    /// Checks `directory` without creating it; a missing one is fine (it holds nothing).
    /// - throws: `PrivateDirectoryError` when it exists and is unsafe.
    public static func check(_ directory: URL) throws(PrivateDirectoryError) {
        let path = directory.path
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        let type = info.st_mode & S_IFMT
        if type == S_IFLNK { throw .symbolicLink(path) }
        if type != S_IFDIR { throw .notADirectory(path) }
        if info.st_uid != geteuid() { throw .badOwner(path) }
        if info.st_mode & 0o022 != 0 { throw .writableByOthers(path, mode: Int(info.st_mode & 0o777)) }
    }
}

/// Why FormStore refused its state directory (see `PrivateDirectory`).
public struct PrivateDirectoryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The folder refused.
    public let path: String
    /// One line saying what is wrong and what to do.
    public let description: String

    private init(_ path: String, _ description: String) {
        self.path = path
        self.description = description
    }

    static func symbolicLink(_ path: String) -> PrivateDirectoryError {
        PrivateDirectoryError(path, "bad state directory \(path): it is a symbolic link; "
                              + "FormStore keeps drafts only in a real folder of yours")
    }

    static func notADirectory(_ path: String) -> PrivateDirectoryError {
        PrivateDirectoryError(path, "bad state directory \(path): it is not a folder")
    }

    static func badOwner(_ path: String) -> PrivateDirectoryError {
        PrivateDirectoryError(path, "bad ownership of state directory \(path): it must be owned by you")
    }

    static func writableByOthers(_ path: String, mode: Int) -> PrivateDirectoryError {
        PrivateDirectoryError(path, "bad permissions on state directory \(path): mode "
                              + String(mode, radix: 8) + " lets others write it (chmod 700 it)")
    }
}
