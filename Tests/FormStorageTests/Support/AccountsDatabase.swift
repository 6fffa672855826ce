import FormCore
import FormStorage
import FormStoreTestSupport
import Foundation

/// An application's `accounts` table, made by the `sqlite3` shell as the
/// application would, and the three-field form the suites edit it through.
/// The key column `id` is no field of the form: it is read all the same.
struct AccountsDatabase {
    let directory: TemporaryDirectory
    let path: String

    /// `script` creates and fills `accounts` (id, email, plan, seats, and any column more).
    init(_ script: String) throws {
        (directory, path) = try TemporaryDirectory.withDatabase(script)
    }

    var form: Form {
        var form = Form(name: "account", sections: [Section(fields: [
            Field(key: "email", label: "Email", kind: .email), Field(key: "plan", label: "Plan", kind: .text),
            Field(key: "seats", label: "Seats", kind: .integer),
        ])])
        form.table = "accounts"
        return form
    }

    func store() throws -> FormStore {
        try FormStore(path: path, sidecarDirectory: directory.url.appendingPathComponent("state"))
    }
}
