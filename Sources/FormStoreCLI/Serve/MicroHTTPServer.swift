import CMicroHTTPD
import FormBasics
import FormWeb
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// libmicrohttpd wrapped for `formstore serve` (docs/web.md says why this
/// library): it parses HTTP, enforces the limits, and calls `handler` with
/// each request on the connection's own thread. The daemon is stopped in `deinit`.
final class MicroHTTPServer: @unchecked Sendable {
    /// Limits on what a client may make the server hold or wait for.
    struct Limits: Sendable {
        var maximumBody = 1 << 24
        var connections: UInt32 = 64
        var connectionsPerClient: UInt32 = 32
        /// Seconds a connection may send nothing (a slow client) before it is closed.
        var idleSeconds: UInt32 = 15
        /// Bytes of a request's headers (larger ones are refused by the library).
        var headerMemory = 32 * 1024
    }

    typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    let handler: Handler
    let limits: Limits
    private var daemon: OpaquePointer?
    /// The port bound (the system's choice when 0 was asked for).
    private(set) var port: UInt16 = 0

    init(limits: Limits, handler: @escaping Handler) {
        self.limits = limits
        self.handler = handler
    }

    /// Listens on `host` (an IPv4 address) and `port`.
    ///
    /// - throws: `CLIError.storage` when the address cannot be bound;
    ///   `MissingLibraryError` when libmicrohttpd is not installed.
    func start(host: String, port: UInt16) throws {
        if let reason = formstore_mhd_load() {
            throw MissingLibraryError(library: "libmicrohttpd", purpose: "formstore serve", package: "libmicrohttpd12",
                                      reason: String(cString: reason))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw CLIError.usage("--listen: '\(host)' is not an IPv4 address")
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        daemon = formstore_mhd_start(&address, limits.connections, limits.connectionsPerClient, limits.idleSeconds,
                                     limits.headerMemory, accessHandler, context, completedHandler, nil)
        guard let daemon else {
            throw CLIError.storage("cannot listen on \(host):\(port): \(String(cString: strerror(errno)))")
        }
        self.port = formstore_mhd_port(daemon)
    }

    func stop() {
        if let daemon { MHD_stop_daemon(daemon) }
        daemon = nil
    }

    deinit { stop() }
}

/// What is known of a request between the library's calls: its body so far.
private final class PendingRequest {
    var body = Data()
    var tooLarge = false
}

/// The answer to a body over the limit: JSON for the API, as its other errors are.
private func tooLarge(_ server: MicroHTTPServer, _ url: UnsafePointer<CChar>?) -> HTTPResponse {
    let message = "The request body is larger than \(server.limits.maximumBody) bytes."
    guard let url, String(cString: url).hasPrefix("/api/") else {
        // A person's post: a page saying what to do, not a bare line (nothing typed is on the server to keep).
        let body = "<p class=\"notice conflict\" role=\"alert\">Nothing was saved: \(HTML.escape(message)) "
            + "That is the most this server takes (formstore serve --max-body BYTES takes more). "
            + "Go back: your page still holds what you typed.</p>\n"
        return .html(413, WebPage(title: "Not saved", body: body).render())
    }
    return .json(413, WebApp.errorJSON(message))
}

/// The library calls this once when a request's headers are in, once per
/// piece of body, and once more when the body is complete.
private let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, upload, uploadSize, pending in
    let server = Unmanaged<MicroHTTPServer>.fromOpaque(context!).takeUnretainedValue()
    guard let connection, let pending, let uploadSize else { return .NO }
    if pending.pointee == nil {
        let state = PendingRequest()
        pending.pointee = Unmanaged.passRetained(state).toOpaque()
        // A declared body over the limit is refused before it is read.
        if let length = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length").map({ String(cString: $0) }),
           let size = Int(length), size > server.limits.maximumBody {
            state.tooLarge = true
            return queue(tooLarge(server, url), on: connection)
        }
        return .YES
    }
    let state = Unmanaged<PendingRequest>.fromOpaque(pending.pointee!).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        if !state.tooLarge, let upload {
            if state.body.count + uploadSize.pointee > server.limits.maximumBody {
                state.tooLarge = true
                state.body = Data()
            } else {
                upload.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) {
                    state.body.append($0, count: uploadSize.pointee)
                }
            }
        }
        uploadSize.pointee = 0
        return .YES
    }
    if state.tooLarge { return queue(tooLarge(server, url), on: connection) }
    let request = HTTPRequest(method: method.map { String(cString: $0) } ?? "GET",
                              path: url.map { String(cString: $0) } ?? "/",
                              query: values(of: connection, kind: .GET_ARGUMENT_KIND),
                              headers: Dictionary(values(of: connection, kind: .HEADER_KIND).map { ($0.name.lowercased(), $0.value) },
                                                  uniquingKeysWith: { first, _ in first }),
                              body: state.body)
    return queue(server.handler(request), on: connection)
}

/// Frees what a request held, however it ended.
private let completedHandler: MHD_RequestCompletedCallback = { _, _, pending, _ in
    guard let pending, let state = pending.pointee else { return }
    Unmanaged<PendingRequest>.fromOpaque(state).release()
    pending.pointee = nil
}

/// Header or query members, in the order the library holds them.
private func values(of connection: OpaquePointer, kind: MHD_ValueKind) -> [(name: String, value: String)] {
    let decoding = kind == .GET_ARGUMENT_KIND
    final class Box { var items: [(name: String, value: String)] = [] }
    let box = Box()
    let context = Unmanaged.passUnretained(box).toOpaque()
    MHD_get_connection_values(connection, kind, { context, _, key, value in
        let box = Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue()
        // Kept percent-encoded by the library (formstore_mhd_start): decoded here, '+' already a space.
        if let key { box.items.append((String(cString: key), value.map { String(cString: $0) } ?? "")) }
        return .YES
    }, context)
    let items = withExtendedLifetime(box) { box.items }
    // Query members come percent-encoded (formstore_mhd_start keeps the path so); '+' is already a space.
    return decoding ? items.map { (HTTPRequest.decoded($0.name), HTTPRequest.decoded($0.value)) } : items
}

private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
    let made: OpaquePointer?
    if let stream = response.stream {
        let source = EventSource(stream)
        made = MHD_create_response_from_callback(UInt64.max, 4096, { context, _, buffer, max in
            let source = Unmanaged<EventSource>.fromOpaque(context!).takeUnretainedValue()
            return source.read(into: buffer!, max: max)
        }, Unmanaged.passRetained(source).toOpaque(), { context in
            Unmanaged<EventSource>.fromOpaque(context!).release()
        })
    } else {
        made = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                            .RESPMEM_MUST_COPY)
        }
    }
    guard let made else { return .NO }
    for (name, value) in response.headers { MHD_add_response_header(made, name, value) }
    let result = MHD_queue_response(connection, UInt32(response.status), made)
    MHD_destroy_response(made)
    return result
}

/// A stream's bytes handed to the library as it asks for them.
private final class EventSource {
    let next: @Sendable () -> Data?
    var pending = Data()

    init(_ next: @escaping @Sendable () -> Data?) { self.next = next }

    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        while pending.isEmpty {
            guard let more = next() else { return -1 }  // MHD_CONTENT_READER_END_OF_STREAM
            pending = more
        }
        let count = min(max, pending.count)
        pending.copyBytes(to: UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: count)
        pending.removeFirst(count)
        return count
    }
}
