import Dispatch
public import FormCore

/// The async API: every call that touches the server runs on a queue of the
/// store's own while the calling task waits without holding a thread of
/// Swift's cooperative pool, so a slow network or a held row lock stalls nothing else.
extension PostgresFormStore {
    /// Opens the store as `init(url:maxConnections:)` does, off the cooperative pool.
    public static func open(url: String, maxConnections: Int = 4) async throws -> PostgresFormStore {
        try await onServerQueue { try PostgresFormStore(url: url, maxConnections: maxConnections) }
    }

    public func load(_ form: Form, key: RecordKey) async throws -> StoredRecord? {
        try await Self.onServerQueue { try self.load(form, key: key) }
    }

    public func insert(_ form: Form, values: [String: FieldValue], deletingDraft: String?) async throws -> StoredRecord {
        try await Self.onServerQueue { try self.insert(form, values: values, deletingDraft: deletingDraft) }
    }

    public func update(_ form: Form, key: RecordKey, changes: [String: FieldValue], base: SaveBase,
                       deletingDraft: String?) async throws -> UpdateResult {
        try await Self.onServerQueue {
            try self.update(form, key: key, changes: changes, base: base, deletingDraft: deletingDraft)
        }
    }

    public func delete(_ form: Form, key: RecordKey, deletingDraft: String?) async throws -> Bool {
        try await Self.onServerQueue { try self.delete(form, key: key, deletingDraft: deletingDraft) }
    }

    public func writeDraft(_ draft: Draft) async throws {
        try await Self.onServerQueue { try self.writeDraft(draft) }
    }

    public func drafts(form: String, key: RecordKey?, owner: String?) async throws -> [Draft] {
        try await Self.onServerQueue { try self.drafts(form: form, key: key, owner: owner) }
    }

    public func deleteDraft(id: String) async throws {
        try await Self.onServerQueue { try self.deleteDraft(id: id) }
    }

    private static let serverQueue = DispatchQueue(label: "FormStoragePostgres", attributes: .concurrent)

    static func onServerQueue<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try Task.checkCancellation()
        return try await withCheckedThrowingContinuation { continuation in
            serverQueue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}
