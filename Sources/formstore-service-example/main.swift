import FormCore
import FormStorage
import Foundation

// A small service over FormStore (docs/service.md): requests as JSON lines on
// stdin, responses as JSON lines on stdout. Every storage call goes through
// FormStore's async API: SQLite runs on the store's threads, never on Swift's
// cooperative pool. Requests are answered in order, one line each.
//
//     formstore-service-example --db tickets.sqlite < requests.ndjson

let arguments = CommandLine.arguments
guard let flag = arguments.firstIndex(of: "--db"), flag + 1 < arguments.count else {
    FileHandle.standardError.write(Data("usage: formstore-service-example --db PATH < requests\n".utf8))
    exit(64)
}

do {
    let store = try await FormStore.open(path: arguments[flag + 1])
    // The table the form needs, generated from the form itself on first start.
    let tables = try await store.database.perform(.reading) { try store.tables() }
    if !tables.contains(where: { $0.name == Ticket.form.tableName }) {
        let sql = try Ticket.form.createTableSQL()
        try await store.database.perform(.writing) { try store.database.write { try $0.executeScript(sql) } }
    }
    let service = TicketService(store: store)
    while let line = readLine(strippingNewline: true) {
        guard !line.isEmpty else { continue }
        let response: Response
        do {
            response = await service.handle(try Request(line: Data(line.utf8)))
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
