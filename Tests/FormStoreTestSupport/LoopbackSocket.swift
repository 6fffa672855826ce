import Glibc

/// A TCP socket bound to a port of 127.0.0.1 the kernel picks, closed when
/// released: listening, a server that accepts connections and never answers;
/// closed at once (`freePort`), a port nobody listens on now.
public final class LoopbackSocket {
    public let port: UInt16
    private let fd: Int32

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(listening: Bool) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = self.fd
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 && (!listening || listen(fd, 8) == 0)
            }
        }
        guard fd >= 0, bound else {
            if fd >= 0 { close(fd) }
            throw Failure(description: "no free port on 127.0.0.1")
        }
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(fd) }

    /// A port nobody listens on now.
    public static func freePort() throws -> UInt16 { try LoopbackSocket(listening: false).port }
}
