import FormStorage
import FormStoreTestSupport
import Testing

/// `DeleteEffect.walk` over a real schema: how far it follows a cascade,
/// and what it says when the rows go on past the levels it walks.
@Suite struct DeleteEffectWalkTests {
    let directory: TemporaryDirectory
    let conn: Connection

    init() throws {
        directory = try TemporaryDirectory()
        conn = try Connection(path: directory.path("db.sqlite"))
        try conn.executeScript("""
            CREATE TABLE staff (id INTEGER PRIMARY KEY, boss INTEGER REFERENCES staff(id) ON DELETE CASCADE,
                                mentor INTEGER REFERENCES staff(id) ON DELETE SET NULL);
            INSERT INTO staff VALUES (1, NULL, NULL), (2, 1, 1), (3, 2, NULL), (4, 3, NULL), (5, NULL, 2), (6, NULL, 1);
            """)
    }

    private func walk(_ id: Int, depth: Int = 32) throws -> [DeleteEffect] {
        let keys = try conn.tableInfo("staff").foreignKeys
        return try DeleteEffect.walk(table: "staff", selected: "\"id\" = ?1", depth: depth, referrers: { _ in
            keys.map { DeleteEffect.Referrer(table: "staff", columns: $0.columns, referred: $0.destinationColumns,
                                             action: DeleteEffect.Action(rule: $0.onDelete)) }
        }, count: { sql in try conn.fetchValue(Int.self, sql, [id]) ?? 0 })
    }

    @Test func aChainIsFollowedToItsEndAndARowDeletedIsNotAlsoCleared() throws {
        // 2, 3 and 4 go with 1; the mentors of 5 and 6 are cleared, not 2's, which goes.
        #expect(try walk(1).map(\.description) == ["3 rows of staff deleted (ON DELETE CASCADE)",
                                                  "staff.mentor cleared in 2 rows (ON DELETE SET NULL)"])
        #expect(try walk(3).map(\.description) == ["1 row of staff deleted (ON DELETE CASCADE)"])
        #expect(try walk(4).isEmpty)
    }

    @Test func rowsPastTheLastLevelWalkedAreSaidAtLeast() throws {
        // The record's referrers (2), and the level looked at past them (3): 4 is not reached.
        let effects = try walk(1, depth: 0)
        #expect(effects.first?.description == "at least 2 rows of staff deleted (ON DELETE CASCADE)")
        #expect(effects.first?.isAtLeast == true)
        // Where the level past them is empty, the count is exact.
        #expect(try walk(3, depth: 0).map(\.description) == ["1 row of staff deleted (ON DELETE CASCADE)"])
    }
}
