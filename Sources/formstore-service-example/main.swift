import FormCore
import FormStorage
import Foundation

// A small service over FormStore (docs/service.md): requests as JSON lines on
// stdin, responses as JSON lines on stdout. It uses the blocking API on the
// main thread, one request at a time, so SQLite never waits on Swift's
// cooperative pool.
//
//     formstore-service-example --db tickets.sqlite < requests.ndjson

let arguments = CommandLine.arguments
guard let flag = arguments.firstIndex(of: "--db"), flag + 1 < arguments.count else {
    FileHandle.standardError.write(Data("usage: formstore-service-example --db PATH < requests\n".utf8))
    exit(64)
}

do {
    let store = try FormStore(path: arguments[flag + 1])
    // The table the form needs, generated from the form itself on first start.
    if try !store.tables().contains(where: { $0.name == Ticket.form.tableName }) {
        let sql = try Ticket.form.createTableSQL()
        try store.database.write { try $0.executeScript(sql) }
    }
    let service = TicketService(store: store)
    while let line = readLine(strippingNewline: true) {
        guard !line.isEmpty else { continue }
        let response: Response
        do {
            response = service.handle(try Request(line: Data(line.utf8)))
        } catch let refused as Response {
            response = refused
        } catch {
            response = Response(status: 400, ["error": "the request is not JSON"])
        }
        FileHandle.standardOutput.write(response.line)
    }
} catch {
    FileHandle.standardError.write(Data("formstore-service-example: \(error)\n".utf8))
    exit(1)
}
