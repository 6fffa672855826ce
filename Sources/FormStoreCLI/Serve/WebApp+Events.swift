import FoundationEssentials
import Glibc
import FormCore
import FormStorage
import FormStoragePostgres

/// `GET /api/forms/NAME/records/KEY/events`: server-sent events, `saved`
/// whenever the record's stored values change (whoever wrote them: this
/// server, another process), `deleted` when it goes.
extension WebApp {
    /// How long a stream stays silent before a comment keeps idle connections from timing out.
    static let eventKeepAlive: TimeInterval = 10

    /// Says on stderr, once each, the tables whose other writers' commits the
    /// server does not hear (a PostgreSQL role that may not add FormStore's
    /// notify trigger): their pages are not told of changes made elsewhere.
    /// Called under the app's lock.
    func warnOfUnwatchedTables() {
        guard let postgres = try? workspace.store() as? PostgresFormStore else { return }
        for (table, reason) in postgres.unwatchedTables.sorted(by: { $0.key < $1.key }) where warnedUnwatched.insert(table).inserted {
            workspace.warnings?.write("formstore: warning: \(table): other writers' changes are not heard (\(reason.singleLine)); "
                                      + "it needs CREATE on its schema and to own the table for FormStore's notify trigger\n")
        }
    }

    /// Each stream sleeps on `commits` on its own connection's thread and
    /// reads the record once per commit, never on a timer.
    ///
    /// - parameter since: the tag of the record as the page drew it (`?etag=`): a page
    ///   that closed its stream while hidden (a browser takes six connections to a
    ///   server, and each open record's stream held one) hears at once of a save made meanwhile.
    func events(_ name: String, key: String, since: String? = nil) throws -> HTTPResponse {
        let first = try locked { () throws -> String in
            try commits.listen(to: workspace.store())
            let (_, found) = try load(name, key: key)
            // After the load, which maps the table and tries to give it the trigger.
            warnOfUnwatchedTables()
            guard let record = found else { throw CLIError.notFound("\(name): no record with key \(key)") }
            return RecordETag.of(record)
        }
        let watch = RecordWatch(tag: first, seen: commits.current)
        watch.missed = since.map { $0 != first.filter { $0 != "\"" } } ?? false
        var response = HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"),
                                                           ("X-Accel-Buffering", "no")])
        response.stream = { [self] in
            if !watch.started {
                watch.started = true
                return Data("retry: 1000\n\n".utf8)
            }
            if watch.missed {
                watch.missed = false
                return Data("event: saved\ndata: {\"etag\":\"\(watch.tag.filter { $0 != "\"" })\"}\n\n".utf8)
            }
            var busy = false
            while !isStopping {
                if busy {
                    usleep(50_000)
                } else {
                    let now = commits.wait(after: watch.seen, timeout: Self.eventKeepAlive)
                    if isStopping { return nil }
                    if now == watch.seen { return Data(": still here\n\n".utf8) }
                    watch.seen = now
                }
                let tag: String?
                do {
                    tag = try locked { try load(name, key: key).1.map(RecordETag.of) }
                    busy = false
                } catch {
                    busy = true  // the database is busy: look again shortly, not at the next commit
                    continue
                }
                guard let tag else {
                    if watch.ended { return nil }
                    watch.ended = true
                    return Data("event: deleted\ndata: {}\n\n".utf8)
                }
                if tag != watch.tag {
                    watch.tag = tag
                    return Data("event: saved\ndata: {\"etag\":\"\(tag.filter { $0 != "\"" })\"}\n\n".utf8)
                }
            }
            return nil
        }
        return response
    }
}

/// One event stream's memory: the tag last reported and the commits seen.
/// Used by its connection's thread alone.
private final class RecordWatch: @unchecked Sendable {
    var tag: String
    var seen: Int
    var started = false
    var ended = false
    /// The page was drawn from another state of the record than the stream began at.
    var missed = false
    init(tag: String, seen: Int) {
        self.tag = tag
        self.seen = seen
    }
}
