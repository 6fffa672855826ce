import CSQLite
import FoundationEssentials

/// A function of one value that SQL run by FormStore may call: deterministic
/// and innocuous (it reads nothing but its argument), so SQLite may use it
/// anywhere, whatever `trusted_schema` says. Equal by name.
///
/// ```swift
/// let twice = SQLFunction(name: "twice") { value in
///     if case .integer(let i) = value { return .integer(i * 2) }
///     return .null
/// }
/// ```
public struct SQLFunction: Sendable, Hashable {
    public let name: String
    public let body: @Sendable (DatabaseValue) -> DatabaseValue

    public init(name: String, body: @escaping @Sendable (DatabaseValue) -> DatabaseValue) {
        self.name = name
        self.body = body
    }

    public static func == (a: SQLFunction, b: SQLFunction) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

extension Connection {
    /// Makes `function` callable by this connection's SQL.
    func register(_ function: SQLFunction) throws {
        let box = Unmanaged.passRetained(FunctionBox(function.body)).toOpaque()
        let code = sqlite3_create_function_v2(
            handle.pointer, function.name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, box,
            { context, count, arguments in
                let body = Unmanaged<FunctionBox>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue().body
                guard count == 1, let argument = arguments?[0] else { return sqlite3_result_null(context) }
                switch body(sqlArgumentValue(argument)) {
                case .null: sqlite3_result_null(context)
                case .integer(let i): sqlite3_result_int64(context, i)
                case .real(let d): sqlite3_result_double(context, d)
                case .text(let text): sqlite3_result_text(context, text, -1, formstore_sqlite3_transient())
                case .blob(let data):
                    data.withUnsafeBytes { sqlite3_result_blob(context, $0.baseAddress, Int32($0.count), formstore_sqlite3_transient()) }
                }
            },
            nil, nil,
            { box in box.map { Unmanaged<FunctionBox>.fromOpaque($0).release() } })
        // On failure SQLite has called the destructor already.
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "could not add the function \(function.name)") }
    }
}

/// A function's argument as the value it holds.
private func sqlArgumentValue(_ argument: OpaquePointer) -> DatabaseValue {
    switch sqlite3_value_type(argument) {
    case SQLITE_INTEGER: return .integer(sqlite3_value_int64(argument))
    case SQLITE_FLOAT: return .real(sqlite3_value_double(argument))
    case SQLITE_TEXT:
        let count = Int(sqlite3_value_bytes(argument))
        guard let bytes = sqlite3_value_text(argument) else { return .text("") }
        return .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
    case SQLITE_BLOB:
        let count = Int(sqlite3_value_bytes(argument))
        guard let bytes = sqlite3_value_blob(argument) else { return .blob(Data()) }
        return .blob(Data(bytes: bytes, count: count))
    default: return .null
    }
}

/// A function's body, kept alive by SQLite until the connection closes.
private final class FunctionBox {
    let body: @Sendable (DatabaseValue) -> DatabaseValue
    init(_ body: @escaping @Sendable (DatabaseValue) -> DatabaseValue) { self.body = body }
}
