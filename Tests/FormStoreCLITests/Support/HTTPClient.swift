import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One HTTP answer as a client sees it.
struct HTTPReply: CustomStringConvertible {
    var status: Int
    /// Header names lower-cased; repeated headers joined with "\n".
    var headers: [String: String]
    var body: Data

    var text: String { String(decoding: body, as: UTF8.self) }
    var description: String { "\(status) \(headers)\n\(text.prefix(2000))" }

    func json() throws -> Any { try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) }
}

/// A small HTTP/1.1 client over a plain socket: the tests control every
/// byte sent (a missing header, a huge body) and follow no redirect.
enum HTTPClient {
    struct Failure: Error, CustomStringConvertible { var description: String }

    static func connect(port: UInt16, timeout: Int = 20) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); throw Failure(description: "cannot connect to port \(port)") }
        var wait = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    static func request(_ method: String, port: UInt16, _ path: String, headers: [String: String] = [:],
                        body: Data = Data()) throws -> HTTPReply {
        let fd = try connect(port: port)
        defer { close(fd) }
        // A `Host` given replaces the loopback one (a page reached through another name).
        let host = headers.first { $0.key.lowercased() == "host" }?.value ?? "127.0.0.1:\(port)"
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
        for (name, value) in headers where name.lowercased() != "host" { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || ["POST", "PATCH", "PUT"].contains(method) { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        send(fd, Data(head.utf8) + body)
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        // Read to the end of the message (a server may keep the connection open, as chromedriver does).
        while !isComplete(received) {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            received.append(contentsOf: buffer[0..<count])
        }
        return try parse(received)
    }

    /// Whether `data` holds a whole response: its head, and a body as long as
    /// `Content-Length` says or a last chunk (else it lasts until the connection closes).
    static func isComplete(_ data: Data) -> Bool {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { return false }
        let head = String(decoding: data[..<end.lowerBound], as: UTF8.self).lowercased()
        let body = data.count - end.upperBound
        for line in head.components(separatedBy: "\r\n") {
            if line.hasPrefix("content-length:"), let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) {
                return body >= length
            }
            if line.hasPrefix("transfer-encoding:") && line.contains("chunked") {
                return data.suffix(5) == Data("0\r\n\r\n".utf8)
            }
        }
        if head.hasPrefix("http/1.1 204") || head.hasPrefix("http/1.1 304") { return true }
        return false
    }

    static func send(_ fd: Int32, _ data: Data) {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let sent = Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                // The server may answer (413) and close before the whole body is sent.
                if sent <= 0 { return }
                offset += sent
            }
        }
    }

    static func parse(_ data: Data) throws -> HTTPReply {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else {
            throw Failure(description: "no HTTP head in \(String(decoding: data, as: UTF8.self))")
        }
        let lines = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + "\n" + value } ?? value
        }
        var body = Data(data[end.upperBound...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = unchunk(body) }
        return HTTPReply(status: status, headers: headers, body: body)
    }

    static func unchunk(_ data: Data) -> Data {
        var out = Data()
        var rest = data[...]
        while let line = rest.range(of: Data("\r\n".utf8)) {
            guard let size = Int(String(decoding: rest[..<line.lowerBound], as: UTF8.self), radix: 16), size > 0 else { break }
            let start = line.upperBound
            guard rest.distance(from: start, to: rest.endIndex) >= size else { break }
            out += rest[start..<(start + size)]
            rest = rest[(start + size + 2)...]
        }
        return out
    }

    /// Reads a server-sent events stream until an event named `name` arrives
    /// (or the connection ends); returns everything read.
    static func awaitEvent(_ name: String, port: UInt16, _ path: String, headers: [String: String] = [:],
                           afterConnecting: () throws -> Void) throws -> String {
        let fd = try connect(port: port, timeout: 15)
        defer { close(fd) }
        var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        for (key, value) in headers { head += "\(key): \(value)\r\n" }
        send(fd, Data((head + "\r\n").utf8))
        var received = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        var triggered = false
        while !received.contains("event: \(name)") {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            received += String(decoding: buffer[0..<count], as: UTF8.self)
            if !triggered && received.contains("retry:") {
                triggered = true
                try afterConnecting()
            }
        }
        return received
    }
}

/// A browser without script: a cookie jar, and forms read off the pages.
final class PageVisitor {
    let port: UInt16
    var cookies: [String: String] = [:]
    var headers: [String: String] = [:]

    init(port: UInt16) { self.port = port }

    func get(_ path: String) throws -> HTTPReply {
        try remember(HTTPClient.request("GET", port: port, path, headers: cookieHeader()))
    }

    /// Posts members as a browser encodes a form.
    func post(_ path: String, _ members: [(String, String)]) throws -> HTTPReply {
        let body = members.map { Self.encode($0.0) + "=" + Self.encode($0.1) }.joined(separator: "&")
        var headers = cookieHeader()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return try remember(HTTPClient.request("POST", port: port, path, headers: headers, body: Data(body.utf8)))
    }

    /// Submits the first `<form method="post">` of `page`: its hidden and
    /// shown members as drawn, with `changes` typed over them.
    func submit(_ page: HTTPReply, _ changes: [String: String], action: String? = nil) throws -> HTTPReply {
        let html = page.text
        let members = Self.formMembers(html)
        var sent: [(String, String)] = []
        var seen = Set<String>()
        for (name, value) in members {
            if let changed = changes[name] {
                if seen.insert(name).inserted { sent.append((name, changed)) }
            } else {
                sent.append((name, value))
            }
        }
        for (name, value) in changes where !members.contains(where: { $0.0 == name }) { sent.append((name, value)) }
        let target = action ?? Self.attribute("action", in: String(html[html.range(of: "<form method=\"post\"")!.lowerBound...]))!
        return try post(target, sent)
    }

    /// What a browser would send for the first post form: inputs with a
    /// value (checked ones for boxes), selected options, textareas.
    static func formMembers(_ html: String) -> [(String, String)] {
        guard let start = html.range(of: "<form method=\"post\""),
              let end = html.range(of: "</form>", range: start.upperBound..<html.endIndex) else { return [] }
        let form = String(html[start.lowerBound..<end.lowerBound])
        var members: [(String, String)] = []
        var rest = form[...]
        while let tag = rest.range(of: "<(input|textarea|select)[^>]*>", options: .regularExpression) {
            let element = String(rest[tag])
            rest = rest[tag.upperBound...]
            guard let name = attribute("name", in: element), !element.contains(" disabled") else { continue }
            if element.hasPrefix("<input") {
                let type = attribute("type", in: element) ?? "text"
                if (type == "checkbox" || type == "radio") && !element.contains(" checked") { continue }
                members.append((name, sanitized(attribute("value", in: element) ?? "", type: type)))
            } else if element.hasPrefix("<textarea") {
                let close = rest.range(of: "</textarea>")!
                // The parser drops a newline right after the start tag, and a
                // form sends a textarea's line breaks as CRLF.
                var content = rest[..<close.lowerBound]
                if content.first == "\n" { content = content.dropFirst() }
                let text = unescape(String(content)).replacingOccurrences(of: "\r\n", with: "\n")
                members.append((name, text.replacingOccurrences(of: "\n", with: "\r\n")))
            } else {
                let close = rest.range(of: "</select>")!
                let options = String(rest[..<close.lowerBound])
                if let selected = options.range(of: "<option[^>]* selected[^>]*>", options: .regularExpression) {
                    members.append((name, attribute("value", in: String(options[selected])) ?? ""))
                } else {
                    members.append((name, ""))
                }
            }
        }
        return members
    }

    /// An input's value as a browser holds it (HTML's value sanitization):
    /// a one-line input drops line breaks; a date or time input empties a
    /// value that is no date or time in its format.
    static func sanitized(_ value: String, type: String) -> String {
        let formats = ["date": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "time": "^[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?$",
                       "datetime-local": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?$"]
        if let format = formats[type] { return value.range(of: format, options: .regularExpression) == nil ? "" : value }
        guard ["text", "search", "tel", "password", "url", "email"].contains(type) else { return value }
        return value.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: "\r", with: "")
    }

    static func attribute(_ name: String, in element: String) -> String? {
        guard let start = element.range(of: " \(name)=\"") else { return nil }
        let rest = element[start.upperBound...]
        return unescape(String(rest[..<rest.firstIndex(of: "\"")!]))
    }

    static func unescape(_ s: String) -> String {
        s.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    static func encode(_ s: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._*")
        return (s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s).replacingOccurrences(of: "%20", with: "+")
    }

    private func cookieHeader() -> [String: String] {
        var all = headers
        if !cookies.isEmpty { all["Cookie"] = cookies.map { "\($0)=\($1)" }.joined(separator: "; ") }
        return all
    }

    private func remember(_ reply: HTTPReply) -> HTTPReply {
        for line in (reply.headers["set-cookie"] ?? "").split(separator: "\n") {
            let pair = line.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
            if pair.count == 2 { cookies[String(pair[0])] = String(pair[1]) }
        }
        return reply
    }
}
