import FormCore
import FormStorage
import Foundation

/// The handlers: a request body goes through the JSON door, a record comes
/// back as a `Ticket`, a refused save as FormCore's outcome JSON. Every
/// storage call is awaited, so SQLite runs on the store's own threads and a
/// wait for another writer's lock parks no thread of Swift's cooperative pool.
struct TicketService {
    let store: FormStore
    /// How often a save that met another writer's change is tried again.
    let attempts = 3

    func handle(_ request: Request) async -> Response {
        do {
            switch (request.method, request.collection, request.recordID) {
            case ("GET", "tickets", let id?): return try await read(id)
            case ("POST", "tickets", nil): return try await create(request.body, for: request)
            case ("PATCH", "tickets", let id?): return try await update(id, with: request.body, for: request)
            case ("GET", "drafts", nil): return try await drafts(of: request.user)
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

    /// One-shot requests keep no draft; a request that asks for it keeps the
    /// unsaved state of a rejected save, owned by its user.
    private func draftPolicy(for request: Request) -> DraftPolicy {
        request.keepsDraft && request.user != nil ? .keepOnReject : .none
    }

    func read(_ id: Int64) async throws -> Response {
        do {
            let session = try await FormSession.open(Ticket.form, key: key(id), backend: store)
            return Response(status: 200, try session.model(as: Ticket.self))
        } catch let error as SessionError where error.reason == .notFound {
            return Response(refused: .notFound)
        }
    }

    func create(_ body: Data, for request: Request) async throws -> Response {
        let session = FormSession.new(Ticket.form, backend: store, drafts: store, owner: request.user,
                                      draftPolicy: draftPolicy(for: request))
        try session.apply(json: body)
        let outcome = try await session.save()
        await session.close()
        guard case .saved = outcome else { return Response(refused: outcome) }
        return Response(status: 201, try session.model(as: Ticket.self))
    }

    /// A PATCH states the values it wants: when another writer changed one of
    /// those fields since the record was read, the body is applied again to the
    /// fresh record, up to `attempts` times, then the conflict is returned.
    /// The user's earlier drafts of the record are offered to this session
    /// only (never to another user); a save that succeeds supersedes them.
    func update(_ id: Int64, with body: Data, for request: Request) async throws -> Response {
        var outcome = SaveOutcome.notFound
        for _ in 0..<attempts {
            let session: FormSession
            do {
                session = try await FormSession.open(Ticket.form, key: key(id), backend: store, drafts: store,
                                                     owner: request.user, draftPolicy: draftPolicy(for: request))
            } catch let error as SessionError where error.reason == .notFound {
                return Response(refused: .notFound)
            }
            try session.apply(json: body)
            outcome = try await session.save()
            await session.close()
            switch outcome {
            case .conflict: continue
            case .saved, .unchanged:
                for draft in session.offeredDrafts { try await session.discard(draft) }
                return Response(status: 200, try session.model(as: Ticket.self))
            case .invalid, .notFound: return Response(refused: outcome)
            }
        }
        return Response(refused: outcome)
    }

    /// The drafts `user` has kept, newest first: which record, which fields.
    func drafts(of user: String?) async throws -> Response {
        guard let user else { return Response(status: 400, ["error": "drafts belong to a user"]) }
        let drafts = try await store.drafts(form: Ticket.form.name, owner: user)
        return Response(status: 200, drafts.map { DraftSummary(draft: $0) })
    }
}

/// A kept draft as a client sees it: the record it edits and the fields it changed.
struct DraftSummary: Encodable {
    var id: Int64?
    var fields: [String]

    init(draft: Draft) {
        if case .int(let id)? = draft.recordKey?.values.first { self.id = id }
        fields = (Array(draft.values.keys) + Array(draft.inputs.keys)).sorted()
    }
}
