import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A file error said the way `strerror` says it ("No such file or directory").
/// FoundationEssentials' `CocoaError` has no `localizedDescription`; what a
/// person needs from it is the system's reason underneath.
public enum ErrorText {
    public static func describe(_ error: any Error) -> String {
        if let cocoa = error as? CocoaError, let posix = cocoa.underlying as? POSIXError {
            return String(cString: strerror(posix.code.rawValue))
        }
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        return "\(error)"
    }
}
