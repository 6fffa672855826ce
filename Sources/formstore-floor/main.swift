// The floor for `formstore show`'s cold start and size: a static Swift
// program that only opens a SQLite database, reads one row by its key and
// prints it as a JSON object. No Foundation at all; formstore-bench runs it
// beside `formstore` and `sqlite3 -json` (README, Performance).
//
//     formstore-floor DATABASE TABLE KEY
import CSQLite
import Glibc

/// A line on standard error, then the exit.
func fail(_ message: String, _ code: Int32 = 1) -> Never {
    let line = Array((message + "\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(code)
}

let arguments = CommandLine.arguments
guard arguments.count == 4 else { fail("usage: formstore-floor DATABASE TABLE KEY", 64) }

var db: OpaquePointer?
guard sqlite3_open_v2(arguments[1], &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
    fail("cannot open \(arguments[1])")
}
let table = "\"" + arguments[2].split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
var statement: OpaquePointer?
guard sqlite3_prepare_v2(db, "SELECT * FROM \(table) WHERE rowid = ?", -1, &statement, nil) == SQLITE_OK else {
    fail(String(cString: sqlite3_errmsg(db)))
}
sqlite3_bind_int64(statement, 1, Int64(arguments[3]) ?? 0)

/// A JSON string literal (quotes, backslashes and control characters escaped).
func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20:
            let hex = Array("0123456789abcdef")
            out += "\\u00" + String(hex[Int(scalar.value >> 4)]) + String(hex[Int(scalar.value & 0xF)])
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

guard sqlite3_step(statement) == SQLITE_ROW else {
    fail("no row \(arguments[3]) in \(arguments[2])")
}
var members: [String] = []
for column in 0..<sqlite3_column_count(statement) {
    let name = quoted(String(cString: sqlite3_column_name(statement, column)))
    let value: String
    switch sqlite3_column_type(statement, column) {
    case SQLITE_INTEGER: value = String(sqlite3_column_int64(statement, column))
    case SQLITE_FLOAT: value = String(sqlite3_column_double(statement, column))
    case SQLITE_NULL: value = "null"
    default: value = quoted(String(cString: sqlite3_column_text(statement, column)))
    }
    members.append(name + ": " + value)
}
print("{" + members.joined(separator: ", ") + "}")
sqlite3_finalize(statement)
sqlite3_close(db)
