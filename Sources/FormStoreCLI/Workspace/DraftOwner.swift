import FoundationEssentials
import Glibc

/// Whose drafts the command writes and offers: the login name of the user it
/// runs as, so that people sharing a database (or a sidecar) never get each
/// other's drafts.
enum DraftOwner {
    /// The name of the effective user (`getpwuid(geteuid())`), else `$USER`;
    /// `nil` when neither is known (the drafts nobody owns).
    static let current: String? = {
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name {
            let login = String(cString: name)
            if !login.isEmpty { return login }
        }
        let user = getenv("USER").map { String(cString: $0) } ?? ""
        return user.isEmpty ? nil : user
    }()
}
