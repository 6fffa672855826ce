/// A whole HTML document around a page's content: the stylesheet and script
/// are linked as files (a `Content-Security-Policy` without inline script
/// can then forbid every inline one), and the viewport fits a phone.
public struct WebPage: Sendable {
    public var title: String
    /// Links shown above the title, outermost first: (label, href).
    public var breadcrumbs: [(label: String, href: String)]
    /// Already escaped markup.
    public var body: String
    /// Where `WebAssets.stylesheet` and `WebAssets.script` are served.
    public var stylesheetHref: String
    public var scriptHref: String?

    public init(title: String, breadcrumbs: [(label: String, href: String)] = [], body: String,
                stylesheetHref: String = "/static/formstore.css", scriptHref: String? = "/static/formstore.js") {
        self.title = title
        self.breadcrumbs = breadcrumbs
        self.body = body
        self.stylesheetHref = stylesheetHref
        self.scriptHref = scriptHref
    }

    /// Every page's header.
    static let header = "<header><a class=\"home\" href=\"/\">FormStore</a></header>"

    /// A rendered page with a "Log out" link in its header (a server with
    /// logins adds it to each page); other bytes are given back as they are.
    public static func addingLogOutLink(to page: String) -> String {
        guard let range = page.firstRange(of: header) else { return page }
        let linked = "<header><a class=\"home\" href=\"/\">FormStore</a> <a class=\"logout\" href=\"/logout\">Log out</a></header>"
        var out = page
        out.replaceSubrange(range, with: linked)
        return out
    }

    public func render() -> String {
        var out = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTML.escape(title)) · FormStore</title>
        <link rel="stylesheet" href="\(HTML.escape(stylesheetHref))">

        """
        if let scriptHref { out += "<script src=\"\(HTML.escape(scriptHref))\" defer></script>\n" }
        out += "</head>\n<body>\n\(Self.header)\n<main>\n"
        if !breadcrumbs.isEmpty {
            out += "<nav aria-label=\"Breadcrumb\"><ol class=\"crumbs\">"
            out += breadcrumbs.map { "<li><a href=\"\(HTML.escape($0.href))\">\(HTML.escape($0.label))</a></li>" }.joined()
            out += "</ol></nav>\n"
        }
        out += "<h1>\(HTML.escape(title))</h1>\n" + body + "</main>\n</body>\n</html>\n"
        return out
    }
}
