import FormCore
import FoundationEssentials
import Dispatch

/// The async API of a store: every call that touches the database runs on the
/// database's own threads (`Database.perform(_:_:)`) while the calling task
/// waits without holding a thread of Swift's cooperative pool, so a wait for
/// another process's lock stalls nothing else. Cancelling the task stops the
/// wait: the call throws `CancellationError` and writes nothing.
///
/// ```swift
/// let store = try await FormStore.open(path: "/var/lib/app/app.sqlite")
/// let open = try await store.records(ticketForm, where: [RecordFilter(field: "status", value: "open")])
/// ```
extension FormStore {
    /// Opens the store as `init(path:configuration:sidecarDirectory:)` does,
    /// off the cooperative pool (opening reads the file and may migrate it).
    ///
    /// - throws: `DatabaseError` or `MigrationError`; `CancellationError`.
    public static func open(path: String, configuration: Configuration = Configuration(),
                            sidecarDirectory: URL? = nil) async throws -> FormStore {
        try await DatabaseJob.run(on: openingQueue) {
            try FormStore(path: path, configuration: configuration, sidecarDirectory: sidecarDirectory)
        }
    }

    // MARK: FormBackend

    public func load(_ form: Form, key: RecordKey) async throws -> StoredRecord? {
        try await database.perform(.reading) { try self.load(form, key: key) }
    }

    // A record's write shares its commit with the writes queued beside it
    // (group commit: `Database.performBatchedWrite`).

    public func insert(_ form: Form, values: [String: FieldValue], deletingDraft: String?) async throws -> StoredRecord {
        try await database.performBatchedWrite {
            try self.insertion(form, values: values, deletingDraft: deletingDraft, attribution: .library)
        }
    }

    public func update(_ form: Form, key: RecordKey, changes: [String: FieldValue], base: SaveBase,
                       deletingDraft: String?) async throws -> UpdateResult {
        try await database.performBatchedWrite {
            try self.updating(form, key: key, changes: changes, base: base, deletingDraft: deletingDraft,
                              attribution: .library)
        }
    }

    public func delete(_ form: Form, key: RecordKey, deletingDraft: String?) async throws -> Bool {
        try await database.performBatchedWrite { try self.deletion(form, key: key, deletingDraft: deletingDraft) }
    }

    // MARK: DraftStore

    public func writeDraft(_ draft: Draft) async throws {
        try await database.perform(.writing) { try self.writeDraft(draft) }
    }

    public func drafts(form: String, key: RecordKey?, owner: String?) async throws -> [Draft] {
        // Reading may attach the sidecar, which needs the writer: the writer's thread.
        try await database.perform(.writing) { try self.drafts(form: form, key: key, owner: owner) }
    }

    /// Every draft of `owner`, or of one form of theirs, newest first.
    public func drafts(form: String?, owner: String?) async throws -> [Draft] {
        try await database.perform(.writing) { try self.drafts(form: form, owner: owner) }
    }

    public func deleteDraft(id: String) async throws {
        try await database.perform(.writing) { try self.deleteDraft(id: id) }
    }

    // MARK: Queries, imports, exports

    /// The records of `form` that pass every filter, in key order, at most
    /// `limit` of them, from one snapshot (`forEachRecord`, collected).
    ///
    /// - throws: `FormStoreError` for a filter on a column the form does not read; `DatabaseError`; `CancellationError`.
    public func records(_ form: Form, where filters: [RecordFilter] = [], limit: Int? = nil) async throws -> [StoredRecord] {
        try await database.perform(.reading) {
            var records: [StoredRecord] = []
            try self.forEachRecord(form, where: filters, limit: limit) { records.append($0) }
            return records
        }
    }

    /// `forEachRecord` on a reader thread: `body` sees each record as it is
    /// read (an export streaming to a file or a socket), without collecting them.
    ///
    /// - throws: as `forEachRecord`; `CancellationError`, which stops the export.
    public func forEachRecord(_ form: Form, where filters: [RecordFilter] = [], limit: Int? = nil,
                              _ body: @escaping @Sendable (StoredRecord) throws -> Void) async throws {
        try await database.perform(.reading) {
            try self.forEachRecord(form, where: filters, limit: limit) { record in
                if Interruption.current?.isCancelled == true { throw CancellationError() }
                try body(record)
            }
        }
    }

    /// `writeBatch` on the writer thread: an import of many records in one
    /// transaction; cancelling the task rolls it back.
    ///
    /// - throws: as `writeBatch`; `CancellationError` (nothing is kept).
    public func writeBatch<T: Sendable>(_ form: Form, commit: Bool = true, attribution: ChangeAttribution? = nil,
                                        _ body: @escaping @Sendable (RecordBatch) throws -> T) async throws -> T {
        try await database.perform(.writing) {
            try self.writeBatch(form, commit: commit, attribution: attribution) { batch in
                let result = try body(batch)
                if Interruption.current?.isCancelled == true { throw CancellationError() }
                return result
            }
        }
    }
}

/// Where `FormStore.open` opens stores: not the cooperative pool.
private let openingQueue = DispatchQueue(label: "formstore.open", attributes: .concurrent)
