import FormCore
import FormStorage
import Foundation

/// The handlers: a request body goes through the JSON door, a record comes
/// back as a `Ticket`, a refused save as FormCore's outcome JSON.
struct TicketService {
    let store: FormStore
    /// How often a save that met another writer's change is tried again.
    let attempts = 3

    func handle(_ request: Request) -> Response {
        do {
            switch (request.method, request.recordID) {
            case ("GET", let id?): return try read(id)
            case ("POST", nil): return try create(request.body)
            case ("PATCH", let id?): return try update(id, with: request.body)
            default: return Response(status: 405, ["error": "\(request.method) \(request.path) is not served"])
            }
        } catch let error as JSONBodyError {
            // Unknown keys, hidden or read-only fields, values of the wrong kind: nothing was set.
            return Response(status: 422, error)
        } catch let error as SessionError {
            return Response(status: 409, ["error": error.message])
        } catch {
            return Response(status: 500, ["error": "\(error)"])
        }
    }

    private func key(_ id: Int64) -> RecordKey { RecordKey("id", .int(id)) }

    func read(_ id: Int64) throws -> Response {
        guard let ticket = try store.load(Ticket.self, form: Ticket.form, key: key(id)) else {
            return Response(refused: .notFound)
        }
        return Response(status: 200, ticket)
    }

    func create(_ body: Data) throws -> Response {
        let session = FormSession.new(Ticket.form, backend: store)
        try session.apply(json: body)
        let outcome = try session.save()
        guard case .saved = outcome else { return Response(refused: outcome) }
        return Response(status: 201, try session.model(as: Ticket.self))
    }

    /// A PATCH states the values it wants: when another writer changed one of
    /// those fields since the record was read, the body is applied again to the
    /// fresh record, up to `attempts` times, then the conflict is returned.
    func update(_ id: Int64, with body: Data) throws -> Response {
        var outcome = SaveOutcome.notFound
        for _ in 0..<attempts {
            let session: FormSession
            do {
                session = try FormSession.open(Ticket.form, key: key(id), backend: store)
            } catch let error as SessionError where error.reason == .notFound {
                return Response(refused: .notFound)
            }
            try session.apply(json: body)
            outcome = try session.save()
            switch outcome {
            case .conflict: continue
            case .saved, .unchanged: return Response(status: 200, try session.model(as: Ticket.self))
            case .invalid, .notFound: return Response(refused: outcome)
            }
        }
        return Response(refused: outcome)
    }
}
