import FormBasics

/// Where a login lands: the page the browser first asked for, carried as
/// `/login?next=…` and the login form's `next`, so a link to a record's
/// history leads there once logged in, not to the list of forms.
extension WebApp {
    /// `/login`, with the address of the page `request` asked for as `next`
    /// when there is one to return to: a page's GET, not `/` (where a login
    /// lands anyway), nor a post, whose body a redirect cannot carry.
    static func loginAddress(returningTo request: HTTPRequest) -> String {
        guard request.method == "GET" || request.method == "HEAD",
              let asked = returnPath(askedAddress(request)), asked != "/" else { return "/login" }
        return "/login?next=" + asked.percentEncodedUnreserved()
    }

    /// The request's path as sent, and its query (decoded by the server) encoded again.
    private static func askedAddress(_ request: HTTPRequest) -> String {
        guard !request.query.isEmpty else { return request.path }
        return request.path + "?" + request.query.map {
            $0.name.percentEncodedUnreserved() + "=" + $0.value.percentEncodedUnreserved()
        }.joined(separator: "&")
    }

    /// `address` when a login may send the browser there: a path of this
    /// server, starting with one `/`, of printable ASCII without `\`. Anything
    /// else is another site's to a browser, or could become one (an open
    /// redirect for a link to this server's login): `//host` and `/\host`
    /// name a host, `https:` or `javascript:` a scheme, and a browser drops
    /// a tab or line break (`/⇥/host` is `//host`), which in `Location` would
    /// also end the header. `nil` for those; the login then lands on `/`.
    static func returnPath(_ address: String?) -> String? {
        guard let address, address.hasPrefix("/"), !address.hasPrefix("//"),
              address.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "\\") }) else { return nil }
        return address
    }
}
