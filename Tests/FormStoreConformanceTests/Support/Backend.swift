import FormCore
import FormStorage
import FormStoragePostgres
import Foundation

/// The two backends the conformance suite runs each test against.
enum BackendKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, postgres
    var description: String { rawValue }
}

/// One backend, fresh for one test: its store (records and drafts), and the
/// database's own client for setting up rows and reading them back the way
/// another application would.
final class TestBackend: @unchecked Sendable {
    let kind: BackendKind
    let store: any FormBackend & DraftStore
    /// The database's location: a file path or a URL.
    let location: String
    private let directory: URL?
    let sqlite: Database?
    let postgres: PostgresPool?

    init(_ kind: BackendKind, schema: Schema) throws {
        self.kind = kind
        switch kind {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            self.directory = directory
            location = directory.appendingPathComponent("app.sqlite").path
            let database = try Database(path: location)
            try database.write { try $0.executeScript(schema.sqlite) }
            sqlite = database
            postgres = nil
            store = try FormStore(database: database)
        case .postgres:
            directory = nil
            location = try PostgresCluster.freshDatabase()
            let pool = try PostgresPool(url: location, maxConnections: 8)
            try pool.write { try $0.executeScript(schema.postgres) }
            postgres = pool
            sqlite = nil
            store = try PostgresFormStore(pool: pool)
        }
    }

    deinit {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// Runs SQL as another application would (it is written to mean the same on both).
    func execute(_ sql: String) throws {
        if let sqlite { try sqlite.write { try $0.executeScript(sql) } }
        if let postgres { try postgres.write { try $0.executeScript(sql) } }
    }

    /// The first row of a query, each value as text (nil for NULL).
    func row(_ sql: String) throws -> [String?]? {
        if let sqlite {
            return try sqlite.read { conn -> [String?]? in
                guard let row = try conn.fetchOne(sql) else { return nil }
                return (0..<row.count).map { index -> String? in
                    switch row[index] {
                    case .null: return nil
                    case .integer(let i): return String(i)
                    case .real(let d): return String(d)
                    case .text(let s): return s
                    case .blob(let data): return String(decoding: data, as: UTF8.self)
                    }
                }
            }
        }
        let result = try postgres!.read { try $0.execute(sql) }
        guard result.rowCount > 0 else { return nil }
        return (0..<result.columnCount).map { result.text(row: 0, column: $0) }
    }

    /// A count the query returns.
    func count(_ sql: String) throws -> Int {
        Int(try row(sql)?.first??.description ?? "") ?? -1
    }
}

/// The same tables, written in each database's own dialect, as an
/// application's own migrations would create them.
struct Schema: Sendable {
    let sqlite: String
    let postgres: String
}
