import FoundationEssentials
import FormCore
import FormStorage
import FormWeb

extension WebApp {
    /// `GET /forms/NAME/KEY/history`: who changed what, when and through what.
    func historyPage(_ name: String, key: String) throws -> HTTPResponse {
        let (form, changes, recording) = try locked { () throws -> (Form, [RecordChange], Bool) in
            let form = try self.form(named: name)
            let recordKey = try workspace.recordKey(try KeyArgument(parsing: key), of: form)
            guard let record = try workspace.store().load(form, key: recordKey) else {
                throw CLIError.notFound("\(name): no record with key \(key)")
            }
            let store = try workspace.store()
            return (form, try store.history(form, key: record.key, field: nil), try store.isRecordingHistory())
        }
        let path = recordPath(form, key)
        let body = HistoryHTML(form: form, changes: changes, whyEmpty: recording ? nil : HistoryCommand.notKeptYet(database: workspace.databasePath)).render()
            + "<div class=\"actions\"><a href=\"\(HTML.escape(path))\">Back to the record</a></div>\n"
        return .html(200, WebPage(title: "History of \(HTML.isolated(form.title)) \(HTML.isolated(key))",
                                  breadcrumbs: [("Forms", "/"), (form.title, "/forms/" + Self.pathSegment(form.name)), (key, path)],
                                  body: body).render())
    }
}
