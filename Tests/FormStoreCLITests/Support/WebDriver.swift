import FormStoreTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Debian's `chromedriver` driving a headless `chromium`, spoken to over
/// the W3C WebDriver protocol with `HTTPClient`: enough of it to open pages,
/// type, click, read and wait, in a real browser.
final class WebDriver {
    let driver = Process()
    let port: UInt16
    let session: String
    let scratch: TemporaryDirectory
    static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// - parameter javaScript: `false` starts a browser with script turned off.
    init(javaScript: Bool = true) throws {
        scratch = try TemporaryDirectory()
        port = try Self.freePort()
        driver.executableURL = URL(fileURLWithPath: "/usr/bin/chromedriver")
        driver.arguments = ["--port=\(port)"]
        driver.standardOutput = FileHandle.nullDevice
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        var options: [String: Any] = [
            "binary": "/usr/bin/chromium",
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1000,1000",
                     "--user-data-dir=" + scratch.path + "/profile"],
        ]
        if !javaScript { options["prefs"] = ["profile.managed_default_content_settings.javascript": 2] }
        let capabilities: [String: Any] = ["capabilities": ["alwaysMatch": [
            "browserName": "chrome", "goog:chromeOptions": options, "unhandledPromptBehavior": "accept",
        ]]]
        var made: String?
        for _ in 0..<200 where made == nil {
            if let reply = try? HTTPClient.request("POST", port: port, "/session", headers: ["Content-Type": "application/json"],
                                                    body: JSONSerialization.data(withJSONObject: capabilities)),
               let value = (try? reply.json() as? [String: Any])?["value"] as? [String: Any] {
                made = value["sessionId"] as? String
                if made == nil {
                    kill(driver.processIdentifier, SIGKILL)
                    throw Failure(description: "no WebDriver session: \(reply)")
                }
            } else {
                usleep(50_000)
            }
        }
        guard let made else { kill(driver.processIdentifier, SIGKILL); throw Failure(description: "chromedriver did not start") }
        session = made
    }

    deinit {
        _ = try? HTTPClient.request("DELETE", port: port, "/session/\(session)")
        // chromedriver may have SIGTERM blocked (inherited from the test runner): the browser is closed, so end it for sure.
        kill(driver.processIdentifier, SIGKILL)
        driver.waitUntilExit()
    }

    static func freePort() throws -> UInt16 { try LoopbackSocket.freePort() }

    /// One command; its `value`.
    @discardableResult
    func command(_ method: String, _ path: String, _ body: [String: Any]? = nil) throws -> Any? {
        let data = try body.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
        let reply = try HTTPClient.request(method, port: port, "/session/\(session)" + path,
                                           headers: ["Content-Type": "application/json"], body: method == "GET" ? Data() : (body == nil ? Data("{}".utf8) : data))
        let value = (try? reply.json() as? [String: Any])?["value"]
        if reply.status != 200 { throw Failure(description: "\(method) \(path): \(reply)") }
        return value
    }

    func open(_ url: String) throws { try command("POST", "/url", ["url": url]) }

    /// The first element `css` matches; throws when there is none.
    /// A page still loading on a loaded machine gets a few seconds to show it.
    func element(_ css: String) throws -> String {
        let deadline = Date().addingTimeInterval(5)
        repeat {
            let value = try? command("POST", "/element", ["using": "css selector", "value": css]) as? [String: Any]
            if let id = value?[Self.elementKey] as? String { return id }
            usleep(100_000)
        } while Date() < deadline
        throw Failure(description: "no element \(css) on \(page)")
    }

    /// Where the browser is and the start of what it shows: what a failure names.
    var page: String {
        let url = (try? command("GET", "/url") as? String) ?? "?"
        let text = (try? run("return document.body ? document.body.innerText : document.documentElement.outerHTML") as? String) ?? "?"
        return "\(url): \(text.prefix(400))"
    }

    func exists(_ css: String) throws -> Bool {
        let found = try command("POST", "/elements", ["using": "css selector", "value": css]) as? [Any]
        return !(found ?? []).isEmpty
    }

    /// One command on the element `css` matches. A page that replaced the
    /// element meanwhile (a reload, a post's answer) makes it stale: it is
    /// found again, for a few seconds.
    @discardableResult
    func onElement(_ css: String, _ method: String, _ path: String, _ body: [String: Any]? = nil) throws -> Any? {
        let deadline = Date().addingTimeInterval(5)
        while true {
            do {
                return try command(method, "/element/\(element(css))" + path, body)
            } catch let failure as Failure where failure.description.contains("stale element") && Date() < deadline {
                usleep(100_000)
            }
        }
    }

    func clear(_ css: String) throws { try onElement(css, "POST", "/clear") }
    func type(_ css: String, _ text: String) throws { try onElement(css, "POST", "/value", ["text": text]) }
    /// Selects what the field holds and types over it: one change, as a person makes it.
    func replace(_ css: String, _ text: String) throws {
        try onElement(css, "POST", "/value", ["text": "\u{E009}a\u{E000}" + text])
    }
    func click(_ css: String) throws { try onElement(css, "POST", "/click") }
    func text(_ css: String) throws -> String { try onElement(css, "GET", "/text") as? String ?? "" }
    func value(_ css: String) throws -> String { try onElement(css, "GET", "/property/value") as? String ?? "" }
    func attribute(_ css: String, _ name: String) throws -> String? {
        try onElement(css, "GET", "/attribute/\(name)") as? String
    }

    /// Runs script in the page (not available with script turned off).
    @discardableResult
    func run(_ script: String) throws -> Any? { try command("POST", "/execute/sync", ["script": script, "args": []]) }

    var windows: [String] { get throws { try command("GET", "/window/handles") as? [String] ?? [] } }

    /// Opens a tab and switches to it.
    func newTab() throws {
        let value = try command("POST", "/window/new", ["type": "tab"]) as? [String: Any]
        try command("POST", "/window", ["handle": value?["handle"] as? String ?? ""])
    }

    /// Closes the current tab and switches to the first left.
    func closeTab() throws {
        let left = try command("DELETE", "/window") as? [String] ?? []
        if let first = left.first { try command("POST", "/window", ["handle": first]) }
    }

    func screenshot(to path: String) throws {
        let base64 = try command("GET", "/screenshot") as? String ?? ""
        try Data(base64Encoded: base64)?.write(to: URL(fileURLWithPath: path))
    }

    /// Waits until `condition` holds, checking every 100 ms for at most
    /// `seconds`; returns whether it came true. A wait, not a timing check.
    /// A condition that throws meanwhile (the page is between two documents)
    /// is not yet true; only its last try's error is thrown.
    @discardableResult
    func wait(_ seconds: Double = 15, until condition: () throws -> Bool) throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if (try? condition()) == true { return true }
            usleep(100_000)
        }
        return try condition()
    }
}
