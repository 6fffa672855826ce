import FormCore
import FormStoreTestSupport
import FormStoragePostgres
import Foundation
import Testing

/// Forms inferred from `pg_catalog` for a schema an application made with
/// psql: each type's kind, enums and `CHECK … IN` lists as choices, required
/// from NOT NULL without a default, keys, identity, serial and generated
/// columns read-only, foreign keys named in the hint.
@Suite struct PostgresInferenceTests {
    static let schema = """
        BEGIN;
        CREATE TYPE order_status AS ENUM ('open', 'shipped', 'cancelled');
        CREATE TABLE customers (
            id serial PRIMARY KEY,
            email text NOT NULL UNIQUE,
            name varchar(80) NOT NULL);
        CREATE TABLE orders (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            ref uuid NOT NULL DEFAULT gen_random_uuid(),
            customer_id integer NOT NULL REFERENCES customers (id),
            total numeric(12,2) NOT NULL,
            placed_at timestamptz NOT NULL DEFAULT now(),
            ship_by date CHECK (ship_by > '2000-01-01'),
            paid boolean NOT NULL DEFAULT false,
            status order_status NOT NULL DEFAULT 'open',
            priority smallint CHECK (priority IN (1, 2, 3)),
            channel varchar(10) DEFAULT 'web' CHECK (channel IN ('web', 'phone', 'it''s')),
            tags text[] NOT NULL DEFAULT '{}',
            meta jsonb,
            receipt bytea,
            note text,
            ratio double precision,
            total_with_tax numeric GENERATED ALWAYS AS (total * 1.2) STORED);
        INSERT INTO customers (email, name) VALUES ('ann@example.com', 'Ann');
        COMMIT;
        """

    func store() throws -> PostgresFormStore {
        let url = try PostgresCluster.freshDatabase()
        try PostgresCluster.psql(url, Self.schema)
        // Only the catalog and the records are used: FormStore's own tables are not needed.
        return try PostgresFormStore(pool: PostgresPool(url: url), applyingMigrations: false)
    }

    @Test func eachTypeGivesItsKind() throws {
        let form = try #require(try store().inferredForm(table: "orders"))
        let kinds = Dictionary(uniqueKeysWithValues: form.fields.map { ($0.key, $0.kind) })
        #expect(kinds == [
            "id": .integer, "ref": .text, "customer_id": .integer, "total": .decimal, "placed_at": .datetime,
            "ship_by": .date, "paid": .bool, "status": .choice, "priority": .choice, "channel": .choice,
            "tags": .text, "meta": .multiline, "receipt": .text, "note": .text, "ratio": .decimal,
            "total_with_tax": .decimal,
        ])
        #expect(form.table == "orders")
        #expect(form.primaryKey == ["id"])
        #expect(form.fields.first { $0.key == "receipt" }?.transforms == [.hex])
        #expect(form.fields.first { $0.key == "ref" }?.hint == "UUID")
    }

    /// A domain is inferred as the type it is over: a number stays a number
    /// (it was text, and exported as `"3"`), an enum's domain a choice.
    @Test func aDomainIsTheTypeItIsOver() throws {
        let url = try PostgresCluster.freshDatabase()
        try PostgresCluster.psql(url, """
            CREATE TYPE mood AS ENUM ('ok', 'sad');
            CREATE DOMAIN posint AS integer CHECK (VALUE > 0);
            CREATE DOMAIN feeling AS mood;
            CREATE TABLE d (id integer PRIMARY KEY, p posint, f feeling);
            INSERT INTO d VALUES (1, 3, 'ok');
            """)
        let store = try PostgresFormStore(pool: PostgresPool(url: url), applyingMigrations: false)
        let form = try #require(try store.inferredForm(table: "d"))
        #expect(form.fields.map(\.kind) == [.integer, .integer, .choice])
        #expect(form.fields.last?.choices.map(\.value) == ["ok", "sad"])
        let exported = try runBinary(["--db", url, "export", "d"])
        #expect(exported.output == #"{"id": 1, "p": 3, "f": "ok"}"# + "\n", "\(exported)")
    }

    @Test func enumsAndCheckListsAreChoicesOfTheirValues() throws {
        let form = try #require(try store().inferredForm(table: "orders"))
        func choices(_ key: String) -> [FieldValue] { form.fields.first { $0.key == key }?.choices.map(\.value) ?? [] }
        #expect(choices("status") == ["open", "shipped", "cancelled"])
        #expect(choices("priority") == [.int(1), .int(2), .int(3)])
        #expect(choices("channel") == ["web", "phone", "it's"])
        // A range check is the server's to enforce: no choices are guessed from it.
        #expect(choices("ship_by").isEmpty)
    }

    /// An enum whose labels include '' offers it as a choice, where it was
    /// dropped (and a stored '' was then no choice of its field); `form`
    /// prints it as `show` prints empty text. A type that is no enum has none.
    @Test func anEnumsEmptyLabelIsAChoice() throws {
        let url = try PostgresCluster.freshDatabase()
        try PostgresCluster.psql(url, """
            CREATE TYPE mood AS ENUM ('', 'happy', 'sad');
            CREATE TYPE only_empty AS ENUM ('');
            CREATE TABLE em (id integer PRIMARY KEY, m mood, o only_empty, t text);
            INSERT INTO em VALUES (1, '', '', ''), (2, 'sad', NULL, 'x');
            """)
        let store = try PostgresFormStore(pool: PostgresPool(url: url), applyingMigrations: false)
        let form = try #require(try store.inferredForm(table: "em"))
        func choices(_ key: String) -> [FieldValue] { form.fields.first { $0.key == key }?.choices.map(\.value) ?? [] }
        #expect(choices("m") == ["", "happy", "sad"])
        #expect(choices("o") == [""])
        #expect(choices("t").isEmpty)
        let described = try runBinary(["--db", url, "form", "em"])
        #expect(described.output.contains("    choices: \"\", happy, sad\n"), "\(described)")
        let set = try runBinary(["--db", url, "set", "em", "2", #"m:="""#])
        #expect(set.code == 0, "\(set)")
        let shown = try runBinary(["--db", url, "show", "em", "2", "--format", "json"])
        #expect(shown.output.contains(#""m": """#), "\(shown)")
    }

    @Test func requiredOnlyWhereTheServerFillsNothingIn() throws {
        let form = try #require(try store().inferredForm(table: "orders"))
        let required = Set(form.fields.filter(\.isNotNull).map(\.key))
        #expect(required == ["customer_id", "total"])
        let readOnly = Set(form.fields.filter(\.isReadOnly).map(\.key))
        #expect(readOnly == ["id", "total_with_tax"])
        let customers = try #require(try store().inferredForm(table: "customers"))
        #expect(Set(customers.fields.filter(\.isNotNull).map(\.key)) == ["email", "name"])
        #expect(customers.fields.first { $0.key == "id" }?.isReadOnly == true)
    }

    @Test func literalDefaultsAndForeignKeysAreShown() throws {
        let form = try #require(try store().inferredForm(table: "orders"))
        func field(_ key: String) -> Field? { form.fields.first { $0.key == key } }
        #expect(field("paid")?.defaultValue == false)
        #expect(field("status")?.defaultValue == "open")
        #expect(field("channel")?.defaultValue == "web")
        #expect(field("placed_at")?.defaultValue == .null)
        #expect(field("customer_id")?.hint == "references customers.id")
        #expect(field("total_with_tax")?.hint == "generated column: computed by PostgreSQL")
        #expect(try store().inferredForm(table: "nothing_here") == nil)
    }

    @Test func aNewRecordSavedThroughTheInferredFormReadsBack() throws {
        let store = try store()
        let form = try #require(try store.inferredForm(table: "orders"))
        let session = FormSession.new(form, backend: store)
        try session.set("customer_id", input: "1")
        try session.set("total", input: "19.90")
        try session.set("priority", input: "2")
        try session.set("tags", input: "{gift,\"rush, now\"}")   // the array as PostgreSQL writes it
        #expect(try session.save().isSuccess)
        let row = try store.pool.read { try $0.execute(
            "SELECT status::text, paid, priority, channel, tags, total_with_tax FROM orders") }
        #expect((0..<row.columnCount).map { row.text(row: 0, column: $0) }
                == ["open", "f", "2", "web", "{gift,\"rush, now\"}", "23.880"])
    }

    @Test func aValueOutsideTheCheckListIsRefusedBeforeTheServer() throws {
        let store = try store()
        let form = try #require(try store.inferredForm(table: "orders"))
        let session = FormSession.new(form, backend: store)
        try session.set("customer_id", input: "1")
        try session.set("total", input: "5")
        try session.set("priority", input: "5")
        #expect(session.errors("priority").map(\.message) == ["\"5\" is not one of the choices for priority"])
        #expect(try session.save().isSuccess == false)
        #expect(try store.pool.read { try $0.execute("SELECT count(*) FROM orders") }.text(row: 0, column: 0) == "0")
    }
}
