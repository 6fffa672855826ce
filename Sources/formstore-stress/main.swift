// formstore-stress: a hidden helper for the reliability tests (not a product).
//
//   formstore-stress crash --db PATH --log PATH --run N [--records 20]
//       Saves and drafts in a loop until killed. Each save is logged after
//       save() returned (`S key n`, `I key n` for a new record), each draft
//       flush after close() returned (`D draft-id n`); every log line is one
//       write(2) followed by fsync(2). Tokens grow: n = run * 1_000_000 + step.
//
//   formstore-stress write --db PATH --log PATH --writer W --seconds S [--records 50] [--busy-ms MS]
//       Edits random records through FormSession until S seconds passed, as one
//       of several concurrent writers. Logs `ok key base token`, `conflict key`,
//       or `busy key` (another process held the lock past the busy timeout).
//
//   formstore-stress rows --db PATH --log PATH
//       Types rows into invoice 1's lines (the tables `invoice` and
//       `invoice_line(invoice_id REFERENCES invoice)`), never saving: after each
//       added row's draft flush it logs `R draft-id count item`.
//
// Table `items(id INTEGER PRIMARY KEY, a, b, c TEXT, n INTEGER)`: every save
// writes one token to a, b and c, so a torn row shows as a ≠ b ≠ c.
import FormCore
import FormStorage
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())

func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: "--" + name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("formstore-stress: \(message)\n".utf8))
    exit(1)
}

func required(_ name: String) -> String {
    guard let value = option(name) else { fail("missing --\(name)") }
    return value
}

func number<T: LosslessStringConvertible>(_ name: String, _ type: T.Type, default value: T? = nil) -> T {
    guard let text = option(name) else {
        guard let value else { fail("missing --\(name)") }
        return value
    }
    guard let parsed = T(text) else { fail("--\(name) takes a number") }
    return parsed
}

/// An append-only log whose lines reach the disk before `append` returns.
final class DurableLog {
    private let fd: Int32

    init(path: String) {
        fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        if fd < 0 { fail("cannot open log \(path): \(String(cString: strerror(errno)))") }
    }

    /// One write(2) per line, so a kill never leaves half a line.
    func append(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if written != bytes.count || fsync(fd) != 0 { fail("cannot write the log") }
    }
}

func itemsForm(_ store: FormStore) throws -> Form {
    guard let table = try store.tables().first(where: { $0.name == "items" }) else { fail("no table items") }
    return FormInference.form(for: table)
}

func setToken(_ token: String, number: Int64, on session: FormSession) throws {
    for column in ["a", "b", "c"] { try session.set(column, value: .text(token)) }
    try session.set("n", value: .int(number))
}

/// Saves and drafts until killed.
func crashLoop() throws {
    let run = number("run", Int64.self)
    let records = number("records", Int.self, default: 20)
    let log = DurableLog(path: required("log"))
    let store = try FormStore(path: required("db"))
    // The test made the database with the sqlite3 shell: taking it over, as
    // `formstore init` does, puts the drafts in it (and makes it WAL).
    try store.initialize()
    let form = try itemsForm(store)
    // Drafts go to the database only: a fallback file would hide a failed write.
    let autosave = DraftAutosaver.Policy(interval: .milliseconds(5), fallback: nil)

    // The draft record: typed into, flushed, never saved. Earlier runs' drafts were checked by the test.
    let typing = try FormSession.open(form, key: RecordKey("id", .int(Int64(records + 1))), backend: store,
                                      drafts: store, autosave: autosave)
    for draft in typing.offeredDrafts { try typing.discard(draft) }

    var step: Int64 = 0
    while true {
        step += 1
        let number = run * 1_000_000 + step
        let token = "t\(number)"
        switch step % 8 {
        case 0:
            let session = FormSession.new(form, backend: store, drafts: store, autosave: autosave)
            try setToken(token, number: number, on: session)
            guard case .saved(_, let key) = try session.save() else { fail("insert not saved") }
            log.append("I \(key.values[0].intValue ?? -1) \(number)")
        case 3, 6:
            try setToken(token, number: number, on: typing)
            typing.close()
            log.append("D \(typing.draftSnapshot.id) \(number)")
        default:
            let key = RecordKey("id", .int(Int64.random(in: 1...Int64(records))))
            let session = try FormSession.open(form, key: key, backend: store, drafts: store, autosave: autosave)
            try setToken(token, number: number, on: session)
            guard case .saved = try session.save() else { fail("save of \(key) not saved") }
            log.append("S \(key.values[0].intValue ?? -1) \(number)")
        }
    }
}

/// Adds rows to a never-saved invoice until killed; each flushed draft is logged.
func rowsLoop() throws {
    let log = DurableLog(path: required("log"))
    let store = try FormStore(path: required("db"))
    try store.initialize()
    let tables = try store.tables()
    guard let invoice = tables.first(where: { $0.name == "invoice" }) else { fail("no table invoice") }
    let form = FormInference.form(for: invoice, including: tables)
    let autosave = DraftAutosaver.Policy(interval: .milliseconds(5), fallback: nil)
    let session = try FormSession.open(form, key: RecordKey("id", 1), backend: store, drafts: store, autosave: autosave)
    var count = 0
    while true {
        count += 1
        let item = "item \(count)"
        _ = try session.addRow("invoice_line", values: ["item": .text(item), "amount": .int(Int64(count))])
        session.close()
        log.append("R \(session.draftSnapshot.id) \(count) \(item.replacingOccurrences(of: " ", with: "_"))")
    }
}

/// One of several writers editing the same records for a while.
func writeLoop() throws {
    let writer = required("writer")
    let records = number("records", Int64.self, default: 50)
    let seconds = number("seconds", Double.self)
    let log = DurableLog(path: required("log"))
    var configuration = Configuration()
    if let busy = option("busy-ms").flatMap(Int.init) { configuration.busyTimeout = .milliseconds(busy) }
    // No drafts here: FormStore's own tables are not needed, as for `formstore set`.
    let store = try FormStore(database: Database(path: required("db"), configuration: configuration),
                              applyingMigrations: false)
    let form = try itemsForm(store)
    let deadline = Date().addingTimeInterval(seconds)
    var step = 0
    while Date() < deadline {
        step += 1
        let id = Int64.random(in: 1...records)
        do {
            let session = try FormSession.open(form, key: RecordKey("id", .int(id)), backend: store, drafts: nil)
            let base = session.value("a").textValue ?? ""
            // A person takes a moment between reading and saving: others get in.
            usleep(UInt32.random(in: 0...2_000))
            try setToken("\(writer).\(step)", number: Int64(step), on: session)
            switch try session.save() {
            case .saved: log.append("ok \(id) \(base) \(writer).\(step)")
            case .conflict: log.append("conflict \(id)")
            case let other: fail("save of \(id): \(other)")
            }
        } catch let error as DatabaseError where error.isBusy {
            log.append("busy \(id)")
        }
    }
}

do {
    switch arguments.first {
    case "crash": try crashLoop()
    case "write": try writeLoop()
    case "rows": try rowsLoop()
    default: fail("usage: formstore-stress crash|write|rows --db PATH --log PATH ...")
    }
} catch {
    fail("\(error)")
}
