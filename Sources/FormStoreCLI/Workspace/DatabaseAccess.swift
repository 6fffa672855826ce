/// How far a command may touch the database file: each command declares its
/// own (`CommandConfiguration.access`).
enum DatabaseAccess: Sendable, Hashable {
    /// May create a missing file (`init`, `migrate`).
    case create
    /// Reads and writes records of an existing file; FormStore's own tables
    /// are not created, so a command that fails leaves the file as it was.
    case write
    /// Like `write`, and the command keeps drafts (`edit`): FormStore's tables
    /// are brought up to date first in a database `init` was run on; for any
    /// other, the first draft kept creates the database's sidecar.
    case writeWithDrafts
    /// Opens an existing file read-only.
    case read

    /// Whether a missing database file may be created.
    var createsFile: Bool { self == .create }
    var isReadOnly: Bool { self == .read }
}
