import FormCore
import Testing
@testable import FormStoreCLI

/// A group's table on the full-screen form, driven key by key: an ordered
/// invoice with lines and rules across them (1–3 rows, unique items, total = sum).
@Suite struct FormScreenRowsTests {
    static func invoiceForm() -> Form {
        Form("invoice") {
            Section {
                Field("Customer", key: "customer").required()
                Field("Total", key: "total", kind: .decimal)
            }
            Section(group: "lines", title: "Lines") {
                Field("Item", key: "item").required()
                Field("Amount", key: "amount", kind: .decimal)
            }
            .childTable("invoice_line", foreignKey: "invoice_id")
            .orderColumn("position")
            .minRows(1).maxRows(3).unique("item").sum("amount", into: "total")
        }
    }

    private func open() throws -> (MemoryBackend, FormSession, FormScreen) {
        let backend = MemoryBackend()
        let record = backend.put(["id": 1, "customer": "Ann", "total": 5.5])
        backend.putRows([["id": 10, "item": "Tea", "amount": 2.5, "position": 1],
                         ["id": 11, "item": "Cake", "amount": 3.0, "position": 2]], group: "lines", of: record.key)
        let session = try FormSession.open(Self.invoiceForm(), key: record.key, backend: backend)
        return (backend, session, FormScreen(session: session))
    }

    private func text(_ screen: FormScreen) -> String { screen.render(width: 80, height: 20).text }

    private func press(_ keys: Key..., on screen: FormScreen) throws {
        for key in keys { _ = try screen.handle(key) }
    }

    @Test func theRowsShowAsATableWithAHeaderOfTheirFields() throws {
        let (_, _, screen) = try open()
        let lines = text(screen).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains(" Lines"))
        #expect(lines.contains("     Item  Amount"))
        #expect(lines.contains("     Tea   2.5"))
        #expect(lines.contains("     Cake  3"))
        #expect(lines.contains("  + add a row (Ctrl-N)"))
    }

    /// A row's password is masked as a field's is, and typed afresh: its
    /// text is never on the screen, nor is what is typed in its place.
    @Test func aRowsPasswordIsNeverShown() throws {
        let form = Form("account") {
            Section { Field("Name", key: "name") }
            Section(group: "logins", title: "Logins") {
                Field("Login", key: "login")
                Field("Password", key: "password", kind: .password)
            }
            .childTable("credential", foreignKey: "account_id")
        }
        let backend = MemoryBackend()
        let record = backend.put(["id": 1, "name": "Ann"])
        backend.putRows([["id": 10, "login": "root", "password": "oldpass"]], group: "logins", of: record.key)
        let session = try FormSession.open(form, key: record.key, backend: backend)
        let screen = FormScreen(session: session)
        #expect(!text(screen).contains("oldpass"))
        #expect(text(screen).contains("root   ••••") || text(screen).contains("root  ••••"), "\(text(screen))")
        try press(.tab, .tab, on: screen)  // name → root's login → its password
        for character in "newpass" { _ = try screen.handle(.character(character)) }
        #expect(!text(screen).contains("newpass"), "\(text(screen))")
        #expect(text(screen).contains("•••••••"), "\(text(screen))")
        try press(.tab, on: screen)
        #expect(session.rows("logins")[0]["password"] == "newpass")
    }

    /// A cell holding empty text shows `""`, apart from NULL, as a field
    /// does; a line break's ⏎ gets its column's room (the column was measured
    /// on the raw text, where the break takes none, and cut its last letter).
    @Test func aCellShowsEmptyTextApartAndItsColumnFitsItsSigns() throws {
        let backend = MemoryBackend()
        let record = backend.put(["id": 1, "customer": "Ann", "total": 5.5])
        backend.putRows([["id": 10, "item": "", "amount": 2.5, "position": 1],
                         ["id": 11, "item": "multi\nline", "amount": .null, "position": 2]], group: "lines", of: record.key)
        let screen = FormScreen(session: try FormSession.open(Self.invoiceForm(), key: record.key, backend: backend))
        let lines = text(screen).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains("     \"\"          2.5"), "\(lines)")
        #expect(lines.contains("     multi⏎line"), "\(lines)")
    }

    @Test func altDownMovesARowAndMarksItMoved() throws {
        let (backend, session, screen) = try open()
        try press(.tab, .tab, on: screen)  // customer → total → Tea's item
        #expect(screen.cell?.field == "item")
        try press(.rowDown, on: screen)
        #expect(session.rows("lines").map { $0["item"] } == ["Cake", "Tea"])
        #expect(text(screen).contains("› ↕  Tea    2.5"))
        #expect(text(screen).contains("1 unsaved"))
        try press(.control("s"), on: screen)
        #expect(backend.record(RecordKey("id", 1))?.groups["lines"]?.map { $0["item"] } == ["Cake", "Tea"])
    }

    @Test func theRulesAcrossRowsShowOnTheAddLine() throws {
        let (_, session, screen) = try open()
        try press(.tab, .tab, .tab, .control("u"), on: screen)  // Tea's amount, cleared
        for character in "4" { _ = try screen.handle(.character(character)) }
        try press(.tab, .control("u"), on: screen)  // Cake's item, cleared
        for character in "Tea" { _ = try screen.handle(.character(character)) }
        try press(.control("s"), on: screen)
        let shown = screen.render(width: 110, height: 20).text
        #expect(shown.contains("Not saved"))
        #expect(shown.contains("  *  Tea   3       ! Item of row 2 is the same as row 1's\n"))
        #expect(shown.contains("  + add a row (Ctrl-N)  ! Total must equal the sum of Lines's Amount (7)\n"))
        #expect(session.rows("lines")[0]["amount"].doubleValue == 4)
    }

    @Test func aCellTypedWithABadValueIsAnUnsavedChange() throws {
        let (_, _, screen) = try open()
        try press(.tab, .tab, .tab, .control("u"), on: screen)  // Tea's amount, cleared
        for character in "lots" { _ = try screen.handle(.character(character)) }
        let shown = text(screen)
        #expect(shown.contains("› *  Tea   lots"))
        #expect(shown.contains("1 unsaved"))
        try press(.escape, on: screen)
        #expect(text(screen).contains("Discard your unsaved changes (1 field)?"))
    }

    @Test func ctrlXAsksThenDeletesTheRowAndCtrlNAddsOne() throws {
        let (_, session, screen) = try open()
        try press(.tab, .tab, .control("x"), on: screen)
        #expect(text(screen).contains("Delete row 1 of Lines?"))
        try press(.character("y"), on: screen)
        #expect(session.rows("lines").map { $0["item"] } == ["Cake"])
        #expect(screen.cell?.row == session.rows("lines")[0].id)
        try press(.control("n"), on: screen)
        for character in "Jam" { _ = try screen.handle(.character(character)) }
        #expect(session.rows("lines").map { $0["item"] } == ["Cake", "Jam"])
        #expect(text(screen).contains("› +  Jam"))
    }

    @Test func aTableWiderThanTheScreenScrollsSidewaysWithTheFocus() throws {
        let (_, session, screen) = try open()
        try session.setRow("lines", session.rows("lines")[0].id, "item", input: "A very long item name indeed")
        try press(.tab, .tab, on: screen)  // Tea's item
        var lines = screen.render(width: 32, height: 16).text.split(separator: "\n").map(String.init)
        #expect(lines.contains("     Item                      …"))
        // The cell being typed in shows the end of its text, where the cursor is.
        #expect(lines.contains("› *  ry long item name indeed"))
        try press(.tab, on: screen)  // its amount: the table scrolls to it
        lines = screen.render(width: 32, height: 16).text.split(separator: "\n").map(String.init)
        #expect(lines.contains("   … Amount"))
        #expect(lines.contains("› *  2.5"))
        // A wider terminal shows the whole table again, from its first column.
        lines = screen.render(width: 80, height: 16).text.split(separator: "\n").map(String.init)
        #expect(lines.contains("     Item                          Amount"))
        #expect(lines.contains("› *  A very long item name indeed  2.5"))
    }

    @Test func undoingARowEditNamesTheGroup() throws {
        let (backend, session, screen) = try open()
        try press(.tab, .tab, .control("u"), on: screen)  // Tea's item, cleared
        for character in "Jam" { _ = try screen.handle(.character(character)) }
        try press(.control("s"), on: screen)
        #expect(backend.record(RecordKey("id", 1))?.groups["lines"]?.map { $0["item"] } == ["Jam", "Cake"])
        try press(.alt("z"), on: screen)
        #expect(session.rows("lines").map { $0["item"] } == ["Tea", "Cake"])
        #expect(backend.record(RecordKey("id", 1))?.groups["lines"]?.map { $0["item"] } == ["Tea", "Cake"])
        #expect(text(screen).contains(" Undone and saved: Lines.\n"))
    }

    @Test func aCellAsWideAsItsColumnShowsWholeWhenFocused() throws {
        let (_, _, screen) = try open()
        try press(.tab, .tab, .tab, .tab, on: screen)  // Cake's item: "Cake" is as wide as "Item"
        #expect(screen.cell?.field == "item")
        #expect(text(screen).contains("›    Cake   3"))
    }
}
