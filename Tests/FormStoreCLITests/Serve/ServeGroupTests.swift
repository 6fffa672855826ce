import Foundation
import Testing

/// Repeating groups on `formstore serve`'s pages, through a client without
/// script: rows are a table, Add / Remove / Move are submit buttons that
/// carry everything typed, and Save writes the parent and its rows at once.
@Suite(.serialized) struct ServeGroupTests {
    @Test func aGroupIsATableOfRowsWithALabelForEveryInputAndItsRules() throws {
        let invoices = try InvoiceForms()
        let server = try ServeRun(invoices.db)
        let page = try PageVisitor(port: server.port).get("/forms/invoice/1")
        #expect(page.status == 200, "\(page)")
        let html = page.text
        #expect(html.contains("<legend>Lines</legend>"))
        #expect(html.contains("<p class=\"hint\" id=\"g-lines-rules\">At least 1 row. Item differs from row to row. Total is the sum of Amount.</p>"))
        #expect(html.contains("<table class=\"rows\">"))
        #expect(html.contains("<label class=\"cell-label\" for=\"g-lines-1-item\">Item <span class=\"required\" aria-hidden=\"true\">*</span><span class=\"visually-hidden\">, row 1</span></label>"))
        #expect(html.contains("name=\"lines[1].item\" id=\"g-lines-1-item\" required aria-required=\"true\" value=\"Tea\""), "\(html)")
        #expect(html.contains("name=\"lines[2].amount\" id=\"g-lines-2-amount\" value=\"3.5\""))
        #expect(html.contains("name=\"lines[1]._key\" value=\"10\""))
        #expect(html.contains("value=\"add 0 lines\""))
        #expect(html.contains("value=\"down 1 lines\" aria-label=\"Move row 1 down\""))
        #expect(html.contains("value=\"up 2 lines\" aria-label=\"Move row 2 up\""))
        #expect(html.contains("value=\"remove 2 lines\" aria-label=\"Remove row 2\""))
        #expect(!html.contains("value=\"up 1 lines\""))
    }

    /// A secure cell another writer changed since the page was drawn is a
    /// conflict when the person types one (the page's `_rows` holds its keyed
    /// digest, never the value): it was written over theirs unasked. Left
    /// empty, it is unchanged and no conflict; the conflict page asks for it
    /// again, drawing neither side's value.
    @Test func aSecureCellChangedMeanwhileIsAConflict() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE acct (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE keyrow (id INTEGER PRIMARY KEY, acct_id INTEGER REFERENCES acct (id), label TEXT, secret TEXT);
            INSERT INTO acct VALUES (1, 'ann'); INSERT INTO keyrow VALUES (10, 1, 'main', 'OLDSECRET');
            """)
        try db.useSpecs(["acct.json": """
            {"formstore": 1, "name": "acct", "table": "acct", "sections": [
              {"fields": [{"key": "name"}]},
              {"fields": [{"key": "label"}, {"key": "secret", "secure": true}],
               "group": {"key": "keys", "table": "keyrow", "foreignKey": ["acct_id"]}}]}
            """])
        let server = try ServeRun(db)
        let browser = PageVisitor(port: server.port)
        let page = try browser.get("/forms/acct/1")
        #expect(!page.text.contains("OLDSECRET"))
        try db.query("UPDATE keyrow SET secret = 'THEIRNEW' WHERE id = 10")
        let untouched = try browser.submit(page, ["name": "bo"])
        #expect(untouched.status == 303, "\(untouched)")
        let drawn = try browser.get("/forms/acct/1")
        try db.query("UPDATE keyrow SET secret = 'THEIRS2' WHERE id = 10")
        let typed = try browser.submit(drawn, ["keys[1].secret": "MINE"])
        #expect(typed.status == 409, "\(typed)")
        #expect(!typed.text.contains("THEIRS2") && !typed.text.contains("MINE"), "\(typed.text)")
        #expect(typed.text.contains(#"type="password" name="keys[1].secret""#), "\(typed.text)")
        #expect(try db.query("SELECT name, secret FROM acct JOIN keyrow ON acct_id = acct.id") == "bo|THEIRS2\n")
    }

    @Test func aRowIsAddedWithoutScriptFilledAndSavedWithTheParentInOrder() throws {
        let invoices = try InvoiceForms()
        let server = try ServeRun(invoices.db)
        let browser = PageVisitor(port: server.port)
        let page = try browser.get("/forms/invoice/1")
        let added = try browser.submit(page, ["customer": "Ann B", "_row": "add 0 lines"])
        #expect(added.status == 200, "\(added)")
        #expect(added.text.contains("A row was added to Lines (row 3). Nothing is saved until you press Save."))
        #expect(added.text.contains("name=\"lines[3].item\""))
        #expect(added.text.contains("value=\"Ann B\""), "what was typed is kept")
        #expect(try invoices.db.query("SELECT customer FROM invoice WHERE id = 1") == "Ann\n", "a row button saves nothing")
        let saved = try browser.submit(added, ["lines[3].item": "Jam", "lines[3].amount": "1.5", "total": "7.5"])
        #expect(saved.status == 303, "\(saved)")
        #expect(saved.headers["location"] == "/forms/invoice/1?saved=customer%2Ctotal%2Clines")
        #expect(try invoices.lines(1) == "1|Tea|2.5\n2|Cake|3.5\n3|Jam|1.5\n")
        #expect(try invoices.db.query("SELECT customer, total FROM invoice WHERE id = 1") == "Ann B|7.5\n")
        let reloaded = try browser.get("/forms/invoice/1?saved=customer,total,lines")
        #expect(reloaded.text.contains("Saved: Customer, Total, Lines."))
        #expect(reloaded.text.contains("name=\"lines[3].item\" id=\"g-lines-3-item\" required aria-required=\"true\" value=\"Jam\""))
    }

    @Test func rowsAreMovedAndRemovedAndTheSaveWritesTheNewOrder() throws {
        let invoices = try InvoiceForms()
        let server = try ServeRun(invoices.db)
        let browser = PageVisitor(port: server.port)
        let moved = try browser.submit(try browser.get("/forms/invoice/1"), ["lines[1].amount": "2", "_row": "down 1 lines"])
        #expect(moved.status == 200, "\(moved)")
        #expect(moved.text.contains("name=\"lines[1].item\" id=\"g-lines-1-item\" required aria-required=\"true\" value=\"Cake\""))
        #expect(moved.text.contains("name=\"lines[2].amount\" id=\"g-lines-2-amount\" value=\"2\""), "the typed amount moved with its row")
        let removed = try browser.submit(moved, ["_row": "remove 1 lines"])
        #expect(removed.text.contains("Row 1 of Lines was removed."))
        #expect(!removed.text.contains("value=\"Cake\""))
        #expect(try invoices.lines(1) == "1|Tea|2.5\n2|Cake|3.5\n")
        let saved = try browser.submit(removed, ["total": "2"])
        #expect(saved.status == 303, "\(saved)")
        #expect(try invoices.db.query("SELECT id, item, amount FROM invoice_line WHERE invoice_id = 1") == "10|Tea|2\n")
        #expect(try invoices.db.query("SELECT total FROM invoice WHERE id = 1") == "2\n")
    }

    @Test func rowErrorsAndGroupRulesAreShownBesideTheirInputsAndNothingIsSaved() throws {
        let invoices = try InvoiceForms()
        let server = try ServeRun(invoices.db)
        let browser = PageVisitor(port: server.port)
        let before = try invoices.db.dump()
        let reply = try browser.submit(try browser.get("/forms/invoice/1"), ["lines[2].item": "Tea", "lines[1].amount": "lots"])
        #expect(reply.status == 422, "\(reply)")
        let html = reply.text
        #expect(html.contains("name=\"lines[1].amount\" id=\"g-lines-1-amount\" aria-invalid=\"true\" aria-describedby=\"g-lines-1-amount-error\" value=\"lots\""), "\(html)")
        #expect(html.contains("<p class=\"error\" id=\"g-lines-1-amount-error\">Amount is not a number</p>"))
        #expect(html.contains("<p class=\"error\" id=\"g-lines-2-item-error\">Item of row 2 is the same as row 1&#39;s</p>"))
        #expect(html.contains("<a href=\"#g-lines-2-item\">Item of row 2 is the same as row 1&#39;s</a>"), "the summary links to the cell")
        #expect(try invoices.db.dump() == before)

        let empty = try browser.submit(try browser.get("/forms/invoice/1"), ["_row": "remove 1 lines"])
        let none = try browser.submit(try browser.submit(empty, ["_row": "remove 1 lines"]), ["total": "0"])
        #expect(none.status == 422)
        #expect(none.text.contains("<p class=\"error\" id=\"g-lines-error\">Lines needs at least 1 row</p>"), "\(none)")
        #expect(try invoices.db.dump() == before)
    }

    @Test func twoBrowsersChangingOneRowMeetAChoicePerCell() throws {
        let invoices = try InvoiceForms()
        let server = try ServeRun(invoices.db)
        let first = PageVisitor(port: server.port), second = PageVisitor(port: server.port)
        let firstPage = try first.get("/forms/invoice/1"), secondPage = try second.get("/forms/invoice/1")
        #expect(try first.submit(firstPage, ["lines[1].amount": "3", "total": "6.5"]).status == 303)
        let conflict = try second.submit(secondPage, ["lines[1].amount": "4", "lines[2].item": "Scone", "total": "7.5"])
        #expect(conflict.status == 409, "\(conflict)")
        #expect(conflict.text.contains("<legend>Lines, row 1: Amount</legend>"))
        #expect(conflict.text.contains("name=\"lines[1].amount\" id=\"g-lines-1-amount-mine\" value=\"4\" checked> Yours"))
        #expect(conflict.text.contains("name=\"lines[1].amount\" id=\"g-lines-1-amount-theirs\" value=\"3\"> Theirs (saved now)"))
        #expect(try invoices.lines(1) == "1|Tea|3\n2|Cake|3.5\n")
        let resolved = try second.submit(conflict, [:])
        #expect(resolved.status == 303, "\(resolved)")
        #expect(try invoices.lines(1) == "1|Tea|4\n2|Scone|3.5\n")
        #expect(try invoices.db.query("SELECT total FROM invoice WHERE id = 1") == "7.5\n")
    }

    @Test func aRowRemovedHereButChangedElsewhereIsAChoice() throws {
        let invoices = try InvoiceForms()
        let server = try ServeRun(invoices.db)
        let first = PageVisitor(port: server.port), second = PageVisitor(port: server.port)
        let firstPage = try first.get("/forms/invoice/1")
        let removing = try second.submit(try second.get("/forms/invoice/1"), ["_row": "remove 2 lines"])
        #expect(try first.submit(firstPage, ["lines[2].amount": "4", "total": "6.5"]).status == 303)
        let conflict = try second.submit(removing, ["total": "2.5"])
        #expect(conflict.status == 409, "\(conflict)")
        #expect(conflict.text.contains("You removed this row; someone else changed it meanwhile."))
        let kept = try second.submit(conflict, ["lines[2]._key": "11", "total": "6.5"])
        #expect(kept.status == 303, "\(kept)")
        #expect(try invoices.lines(1) == "1|Tea|2.5\n2|Cake|4\n")
    }

    @Test func aRowChangedHereButDeletedElsewhereIsAChoice() throws {
        let invoices = try InvoiceForms()
        let server = try ServeRun(invoices.db)
        let browser = PageVisitor(port: server.port)
        let page = try browser.get("/forms/invoice/1")
        try invoices.db.query("DELETE FROM invoice_line WHERE id = 11")
        let conflict = try browser.submit(page, ["lines[2].amount": "4", "total": "6.5"])
        #expect(conflict.status == 409, "\(conflict)")
        #expect(conflict.text.contains("You changed this row; someone else deleted it meanwhile."))
        #expect(try invoices.lines(1) == "1|Tea|2.5\n")
        let kept = try browser.submit(conflict, [:])
        #expect(kept.status == 303, "\(kept)")
        #expect(try invoices.db.query("SELECT item, amount FROM invoice_line WHERE invoice_id = 1 ORDER BY position") == "Tea|2.5\nCake|4\n")
    }

    @Test func aNewRecordIsCreatedWithItsRows() throws {
        let invoices = try InvoiceForms()
        let server = try ServeRun(invoices.db)
        let browser = PageVisitor(port: server.port)
        let blank = try browser.get("/forms/invoice/new")
        #expect(blank.text.contains("No rows yet."))
        let one = try browser.submit(blank, ["customer": "Cy", "_row": "add 0 lines"])
        let two = try browser.submit(one, ["lines[1].item": "Jam", "lines[1].amount": "1", "_row": "add 0 lines"])
        #expect(two.text.contains("value=\"Jam\"") && two.text.contains("value=\"Cy\""))
        let created = try browser.submit(two, ["lines[2].item": "Bread", "lines[2].amount": "2", "total": "3"])
        #expect(created.status == 303, "\(created)")
        #expect(created.headers["location"]?.hasPrefix("/forms/invoice/3?saved=") == true)
        #expect(try invoices.lines(3) == "1|Jam|1\n2|Bread|2\n")
    }

    @Test func aDraftKeepsTheRowsAndRestoresThem() throws {
        let invoices = try InvoiceForms()
        let server = try ServeRun(invoices.db)
        let browser = PageVisitor(port: server.port)
        let added = try browser.submit(try browser.get("/forms/invoice/1"), ["_row": "add 0 lines"])
        var members = PageVisitor.formMembers(added.text)
        members = members.map { $0.0 == "lines[3].item" ? ($0.0, "Pie") : $0.0 == "lines[1].amount" ? ($0.0, "9") : $0 }
        #expect(try browser.post("/forms/invoice/1/draft", members).status == 204)
        let reopened = try browser.get("/forms/invoice/1")
        #expect(reopened.text.contains("You have unsaved changes to this record"), "\(reopened)")
        let restoreForm = String(reopened.text[reopened.text.range(of: "<form method=\"post\" action=\"/forms/invoice/1/draft/restore\"")!.lowerBound...])
        let restored = try browser.submit(HTTPReply(status: 200, headers: [:], body: Data(restoreForm.utf8)), [:])
        #expect(restored.status == 200, "\(restored)")
        #expect(restored.text.contains("name=\"lines[3].item\" id=\"g-lines-3-item\" required aria-required=\"true\" value=\"Pie\""), "\(restored)")
        #expect(restored.text.contains("name=\"lines[1].amount\" id=\"g-lines-1-amount\" value=\"9\""))
    }

    @Test func childrenGiveAnInferredFormItsChildTables() throws {
        let db = try DemoDatabase(sql: ChildRowsCommandTests.schema)
        let plain = try ServeRun(db)
        let without = try PageVisitor(port: plain.port).get("/forms/invoice/1")
        #expect(without.status == 200 && !without.text.contains("<table class=\"rows\">"))
        let server = try ServeRun(db, ["--children"])
        let browser = PageVisitor(port: server.port)
        let page = try browser.get("/forms/invoice/1")
        #expect(page.text.contains("<legend>invoice_line</legend>"), "\(page)")
        #expect(page.text.contains("value=\"Cake\""))
        #expect(!page.text.contains("value=\"up 2 invoice_line\""), "a child table without an order column keeps key order")
        let saved = try browser.submit(try browser.submit(page, ["_row": "add 0 invoice_line"]),
                                       ["invoice_line[3].item": "Pie", "invoice_line[3].amount": "1", "total": "6.5"])
        #expect(saved.status == 303, "\(saved)")
        #expect(try db.query("SELECT item, amount FROM invoice_line WHERE invoice_id = 1 ORDER BY id") == "Tea|2.5\nCake|3.5\nPie|1\n")
    }

    /// A new row's part of a composite key (a playlist's track) is picked:
    /// its select was disabled, and what a post gave for it was dropped
    /// ("track_id is required"), so no row could be added. A stored row's stays fixed.
    @Test func aNewRowTakesItsPartOfACompositeKey() throws {
        let db = try DemoDatabase(sql: ChildRowsWriteCommandTests.playlists)
        let server = try ServeRun(db, ["--children"])
        let browser = PageVisitor(port: server.port)
        let stored = try browser.get("/forms/playlist/1")
        #expect(stored.text.contains("<select name=\"playlist_track[1].track_id\" id=\"g-playlist_track-1-track_id\" "
                                     + "aria-describedby=\"g-playlist_track-1-track_id-ref\" disabled>"), "\(stored)")
        let added = try browser.submit(try browser.get("/forms/playlist/2"), ["_row": "add 0 playlist_track"])
        #expect(added.text.contains("<select name=\"playlist_track[1].track_id\" id=\"g-playlist_track-1-track_id\" aria-required=\"true\">"),
                "\(added)")
        let saved = try browser.submit(added, ["playlist_track[1].track_id": "3", "playlist_track[1].position": "0"])
        #expect(saved.status == 303, "\(saved)")
        #expect(try db.query("SELECT track_id, position FROM playlist_track WHERE playlist_id = 2") == "3|0\n")
    }

    /// A stored row's cell left out of a post is not given, as a field left
    /// out is not: a script posting a row's item alone set its amount to NULL.
    @Test func aCellLeftOutOfAPostIsLeftAsItIs() throws {
        let invoices = try InvoiceForms()
        let server = try ServeRun(invoices.db)
        let browser = PageVisitor(port: server.port)
        let page = try browser.get("/forms/invoice/1")
        let members = PageVisitor.formMembers(page.text).filter { $0.0 != "lines[1].amount" }
            .map { $0.0 == "lines[1].item" ? ($0.0, "Tea S") : $0 }
        let saved = try browser.post("/forms/invoice/1", members)
        #expect(saved.status == 303, "\(saved)")
        #expect(try invoices.lines(1) == "1|Tea S|2.5\n2|Cake|3.5\n")
    }

    /// A row's cell takes `\N` and `""` as a field does, and emptied stores
    /// its table's "nothing": NULL in a nullable column, `''` in one declared
    /// `DEFAULT ''`. Each was stored as typed (`'\N'`, `'""'`, `''`).
    @Test func aCellTakesNullAndEmptyTextAsAFieldDoes() throws {
        let db = try DemoDatabase(sql: """
            CREATE TABLE album (id INTEGER PRIMARY KEY, title TEXT);
            CREATE TABLE track (id INTEGER PRIMARY KEY, album_id INTEGER REFERENCES album(id), name TEXT,
                                note TEXT NOT NULL DEFAULT '', extra TEXT);
            INSERT INTO album VALUES (1, 'A');
            INSERT INTO track VALUES (10, 1, 'one', 'n', 'e'), (11, 1, NULL, '', NULL);
            """)
        let server = try ServeRun(db, ["--children"])
        let browser = PageVisitor(port: server.port)
        let saved = try browser.submit(try browser.get("/forms/album/1"), [
            "track[1].name": #"\N"#, "track[1].note": "", "track[1].extra": #""""#,
            "track[2].name": #"\N"#, "track[2].note": #""""#, "track[2].extra": "",
        ])
        #expect(saved.status == 303, "\(saved)")
        #expect(try db.query("SELECT id, quote(name), quote(note), quote(extra) FROM track ORDER BY id")
                == "10|NULL|''|''\n11|NULL|''|NULL\n")
        _ = try browser.submit(try browser.get("/forms/album/1"), ["track[1].extra": "x"])
        let emptied = try browser.submit(try browser.get("/forms/album/1"), ["track[1].extra": ""])
        #expect(emptied.status == 303, "\(emptied)")
        #expect(try db.query("SELECT quote(extra) FROM track WHERE id = 10") == "NULL\n")
    }
}
