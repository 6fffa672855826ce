import FormStoreTestSupport
import Foundation
import FormStorage
import Testing

@Suite struct EmbeddedMigrationsTests {
    @Test func embeddedCopyMatchesTheMigrationsFolder() throws {
        let folder = URL(fileURLWithPath: packageRoot).appendingPathComponent("Migrations", isDirectory: true)
        let fromFolder = try Migrator(directory: folder, table: "formstore_migrations").migrations()
        let embedded = try Migrator.formStore.migrations()
        #expect(!fromFolder.isEmpty)
        #expect(embedded.map(\.fileName) == fromFolder.map(\.fileName),
                "Migrations/ and EmbeddedMigrations.swift differ: run Scripts/embed-resources.sh")
        #expect(embedded == fromFolder, "Migrations/ and EmbeddedMigrations.swift differ: run Scripts/embed-resources.sh")
    }

    @Test func formStoreMigrationsAreNumberedFromOne() throws {
        let migrations = try Migrator.formStore.migrations()
        #expect(migrations.map(\.fileName) == ["0001_settings.sql", "0002_drafts.sql", "0003_forms.sql",
                                             "0004_draft_owners.sql", "0005_history.sql",
                                             "0006_history_without_autoincrement.sql"])
    }

    @Test func checksumIsSHA256() throws {
        // FIPS 180-2 test vectors.
        func checksum(_ sql: String) throws -> String { try Migration(fileName: "0001_x.sql", sql: sql).checksum }
        #expect(try checksum("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(try checksum("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(try checksum("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(try checksum(String(repeating: "a", count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // 55 and 56 bytes straddle the padding boundary.
        #expect(try checksum(String(repeating: "a", count: 55))
                == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        #expect(try checksum(String(repeating: "a", count: 56))
                == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
    }
}
