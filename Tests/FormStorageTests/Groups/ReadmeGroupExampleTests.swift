import FormCore
import FormStoreTestSupport
import Foundation
import Testing
@testable import FormStorage

/// README's master–detail example, compiled and run on the invoice of
/// `ChildTableTests`; the test fails when the README's block and the lines
/// between the markers differ.
@Suite struct ReadmeGroupExampleTests {
    @Test func theReadmeExampleIsThisCodeAndRuns() throws {
        let tables = try ChildTableTests()
        let store = tables.store
        // README-BEGIN
        let invoice = Form("invoice") {
            Section { Field("Customer", key: "customer").required(); Field("Total", key: "total", kind: .decimal) }
            Section(group: "lines", title: "Lines") {
                Field("Item", key: "item").required()
                Field("Amount", key: "amount", kind: .decimal)
            }
            .childTable("invoice_line", foreignKey: "invoice_id").orderColumn("position")
            .minRows(1).unique("item").sum("amount", into: "total")
        }
        let session = try FormSession.open(invoice, key: RecordKey("id", 1), backend: store, drafts: store)
        let row = try session.addRow("lines", values: ["item": "Jam", "amount": 1.5])
        try session.moveRow("lines", row, to: 0)
        try session.set("total", input: "7")
        let outcome = try session.save()   // .conflict([lines[11].amount: …]) if someone changed that line meanwhile
        // README-END
        #expect(outcome == .saved(changed: ["total", "lines"], key: RecordKey("id", 1)))
        #expect(try tables.lines() == ["12|Jam|1.5|1", "10|Tea|2.5|2", "11|Cake|3|3"])

        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let region = source.components(separatedBy: "// README-BEGIN\n")[1].components(separatedBy: "        // README-END")[0]
        let code = region.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : String($0) }.joined(separator: "\n")
        let readme = try String(contentsOf: URL(fileURLWithPath: packageRoot).appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```swift\n" + code + "```"), "README.md's master–detail example differs")
    }
}
