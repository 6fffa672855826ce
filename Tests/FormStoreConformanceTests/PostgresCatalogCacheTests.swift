import FormCore
import FormStoragePostgres
import Foundation
import Synchronization
import Testing

/// A picker on PostgreSQL reads the catalog (the tables, their foreign keys)
/// once per store: `show`, `list` and `serve`'s pickers then cost only the
/// rows they read.
@Suite struct PostgresCatalogCacheTests {
    @Test func pickersAndChoicesReadTheCatalogOncePerStore() throws {
        let backend = try TestBackend(.postgres, schema: CommandReferenceConformanceTests.schema)
        let store = try #require(backend.store as? PostgresFormStore)
        let form = try #require(try store.inferredForm(table: "album"))
        let catalogReads = Atomic<Int>(0)
        backend.traceStatements { sql in
            if sql.contains("pg_catalog") { catalogReads.add(1, ordering: .relaxed) }
        }
        let pickers = try store.pickers(form)
        #expect(Set(pickers.keys) == ["artist_id", "curator_id"])
        #expect(try store.choices(form, field: "artist_id", search: "ac").map(\.label) == ["AC/DC", "Accept"])
        let first = catalogReads.load(ordering: .relaxed)
        #expect(first > 0)
        for _ in 1...3 {
            #expect(try store.pickers(form) == pickers)
            #expect(try store.choices(form, field: "artist_id", search: "bl").map(\.label) == ["Blur"])
            #expect(try store.referenceLabel(form, field: "curator_id", value: .int(1)) == "Ann")
        }
        #expect(catalogReads.load(ordering: .relaxed) == first)
    }
}
