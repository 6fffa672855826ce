import CSQLite
public import FoundationEssentials

/// A prepared SQL statement. Get one from `Connection.cachedStatement(_:)`
/// (reused for the same SQL) or `Connection.makeStatement(_:)`.
///
/// ```swift
/// let insert = try conn.cachedStatement("INSERT INTO t(a) VALUES (?)")
/// for a in 1...3 { try insert.execute([a]) }
/// ```
///
/// Not `Sendable`: a statement belongs to its connection's thread of use.
/// See <https://www.sqlite.org/c3ref/stmt.html>.
public final class Statement {
    /// The SQL text, as prepared.
    public let sql: String
    let pointer: OpaquePointer
    // Keeps the connection open while this statement exists.
    private let handle: ConnectionHandle
    /// The bytes of the text and blobs `execute` binds in place, kept from run to run.
    private let argumentBytes = ArgumentBytes()

    init(sql: String, handle: ConnectionHandle) throws {
        var statement: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let code = sql.withCString { JSONSchemaTrust.prepare($0, on: handle.pointer, &statement, &tail) }
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw DatabaseError.from(handle.pointer, code: code, sql: sql)
        }
        if let tail, tail.pointee != 0,
           !String(cString: tail).allSatisfy({ $0.isWhitespace || $0 == ";" }) {
            sqlite3_finalize(statement)
            throw DatabaseError(resultCode: .SQLITE_MISUSE,
                                message: "a statement must hold one SQL command; use executeScript for several",
                                sql: sql)
        }
        self.sql = sql
        self.pointer = statement
        self.handle = handle
    }

    deinit {
        sqlite3_finalize(pointer)
    }

    /// The number of result columns.
    public var columnCount: Int { Int(sqlite3_column_count(pointer)) }

    /// The result column names.
    public var columnNames: [String] {
        (0..<Int32(columnCount)).map { String(cString: sqlite3_column_name(pointer, $0)) }
    }

    /// True when the statement does not change the database.
    public var isReadOnly: Bool { sqlite3_stmt_readonly(pointer) != 0 }

    /// The number of parameters (`?`, `:name` ...).
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(pointer)) }

    // MARK: Binding

    /// Binds a value to a 1-based parameter index.
    ///
    /// - throws: `DatabaseError` (`SQLITE_RANGE` for an index out of range).
    public func bind(_ value: DatabaseValue, at index: Int) throws {
        let i = Int32(index)
        let code: Int32
        switch value {
        case .null, .integer, .real:
            code = bindNullOrNumber(value, at: i)
        case .text(let v):
            // An explicit byte count keeps text after an embedded NUL character. Through
            // `withCString`: passing the String itself made a C-string array per value.
            code = v.withCString { sqlite3_bind_text(pointer, i, $0, Int32(clamping: v.utf8.count), formstore_sqlite3_transient()) }
        case .blob(let v):
            code = v.withUnsafeBytes { bytes in
                // A NULL pointer would bind NULL: an empty blob needs a real (zero-length) one.
                sqlite3_bind_blob64(pointer, i, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                                    sqlite3_uint64(bytes.count), formstore_sqlite3_transient())
            }
        }
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// Binds NULL or a number, as `bind(_:at:)` and `bindInPlace` both do; the
    /// SQLite result code. Text and blobs each caller binds its own way.
    @inline(__always)
    private func bindNullOrNumber(_ value: DatabaseValue, at index: Int32) -> Int32 {
        switch value {
        case .null: sqlite3_bind_null(pointer, index)
        case .integer(let integer): sqlite3_bind_int64(pointer, index, integer)
        case .real(let real): sqlite3_bind_double(pointer, index, real)
        case .text, .blob: preconditionFailure("text and blobs are bound by the caller")
        }
    }

    /// Binds a convertible value to a 1-based parameter index.
    public func bind(_ value: (any DatabaseValueConvertible)?, at index: Int) throws {
        try bind(value?.databaseValue ?? .null, at: index)
    }

    /// Binds a value to a named parameter; `name` may omit its `:`, `@` or `$` prefix.
    ///
    /// - throws: `DatabaseError` (`SQLITE_RANGE`) when the statement has no such parameter.
    public func bind(_ value: DatabaseValue, named name: String) throws {
        guard let index = parameterIndex(name) else {
            throw DatabaseError(resultCode: .SQLITE_RANGE, message: "no parameter named \(name)", sql: sql)
        }
        try bind(value, at: index)
    }

    /// Binds every parameter: a named parameter takes its value from
    /// `arguments.named`, else the next positional value; one left without
    /// a value is an error, so none keeps a value bound before.
    ///
    /// - throws: `DatabaseError` (`SQLITE_RANGE`) when the arguments do not match the parameters.
    public func bind(_ arguments: StatementArguments) throws {
        if arguments.named.isEmpty { return try bind(positional: arguments.positional) }
        sqlite3_clear_bindings(pointer)
        var positional = arguments.positional.makeIterator()
        var names: Set<String> = []
        for index in stride(from: 1, through: parameterCount, by: 1) {
            if let name = parameterName(at: index) {
                names.insert(name)
                if let value = arguments.named[name] {
                    try bind(value, at: index)
                    continue
                }
            }
            guard let value = positional.next() else {
                throw DatabaseError(resultCode: .SQLITE_RANGE,
                                    message: "missing an argument for parameter \(index)", sql: sql)
            }
            try bind(value, at: index)
        }
        if positional.next() != nil {
            throw DatabaseError(resultCode: .SQLITE_RANGE,
                                message: "more arguments than the \(parameterCount) parameters", sql: sql)
        }
        if let unknown = arguments.named.keys.sorted().first(where: { !names.contains($0) }) {
            throw DatabaseError(resultCode: .SQLITE_RANGE, message: "no parameter named \(unknown)", sql: sql)
        }
    }

    /// Binds `values` to the parameters in order, one value a parameter, as
    /// `bind(_:)` binds arguments without names; what a load by key calls,
    /// with no arguments (and their empty dictionary) made for it.
    ///
    /// - throws: `DatabaseError` (`SQLITE_RANGE`) when there are more or fewer values than parameters.
    func bind(positional values: [DatabaseValue]) throws {
        // The counts checked first, every parameter is bound anew: nothing to clear.
        let count = parameterCount
        if values.count < count {
            throw DatabaseError(resultCode: .SQLITE_RANGE, message: "missing an argument for parameter \(values.count + 1)", sql: sql)
        }
        if values.count > count {
            throw DatabaseError(resultCode: .SQLITE_RANGE, message: "more arguments than the \(count) parameters", sql: sql)
        }
        for (offset, value) in values.enumerated() { try bind(value, at: offset + 1) }
    }

    /// The name of a parameter without its prefix; `nil` for `?` and `?NNN`.
    private func parameterName(at index: Int) -> String? {
        guard let cName = sqlite3_bind_parameter_name(pointer, Int32(index)) else { return nil }
        let name = String(cString: cName)
        guard let first = name.first, first != "?" else { return nil }
        return String(name.dropFirst())
    }

    private func parameterIndex(_ name: String) -> Int? {
        if let first = name.first, ":@$".contains(first) {
            let i = sqlite3_bind_parameter_index(pointer, name)
            return i > 0 ? Int(i) : nil
        }
        for prefix in [":", "@", "$"] {
            let i = sqlite3_bind_parameter_index(pointer, prefix + name)
            if i > 0 { return Int(i) }
        }
        return nil
    }

    // MARK: Stepping

    /// Rewinds the statement so it can run again; bindings are kept.
    public func reset() {
        // sqlite3_reset repeats the last step's error, which the step already reported.
        sqlite3_reset(pointer)
    }

    /// Runs one step: `true` when a row is ready to read, `false` when done.
    ///
    /// - throws: `DatabaseError`; the statement is reset so it can be reused.
    public func step() throws -> Bool {
        var code = sqlite3_step(pointer)
        // Prepared again inside the step (the schema changed since, a JSONField added), a statement
        // meets SQLite 3.40's refusal of its JSON functions there: trusted as at a prepare, it runs.
        if code != SQLITE_ROW && code != SQLITE_DONE && JSONSchemaTrust.admitJSON(after: code, on: handle.pointer) {
            sqlite3_reset(pointer)
            code = sqlite3_step(pointer)
        }
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = error(code)
            sqlite3_reset(pointer)
            throw error
        }
    }

    /// Binds the arguments and runs the statement to completion, ignoring rows.
    /// No value stays bound afterwards: text and blobs are bound in place for the run only.
    ///
    /// - throws: `DatabaseError`.
    public func execute(_ arguments: StatementArguments = []) throws {
        reset()
        guard arguments.named.isEmpty, arguments.positional.count == parameterCount else {
            try bind(arguments)
            defer { reset() }
            while try step() {}
            return
        }
        // Text and blobs are bound in place from `argumentBytes` (SQLITE_STATIC), not
        // copied by SQLite per value (SQLITE_TRANSIENT: a malloc and a free each; issue 14).
        defer {
            // Reset first (a statement's end may still read its values), then unbind, so
            // no binding points into the buffer the next execute overwrites.
            reset()
            sqlite3_clear_bindings(pointer)
        }
        try bindInPlace(arguments.positional)
        while try step() {}
    }

    /// Binds every parameter, in order, copying text and blob bytes into
    /// `argumentBytes` and binding them there with SQLITE_STATIC; the caller
    /// clears the bindings before the buffer is written again.
    // The values are read through their buffer and the numbers bound inline: the array's
    // walk copied every value (a retain and a release of each text) and called
    // `bind(_:at:)` for each number, about 300 instructions a value of an import's every row.
    private func bindInPlace(_ values: [DatabaseValue]) throws {
        try values.withUnsafeBufferPointer { values in
            var byteCount = 0
            for value in values {
                switch value {
                case .text(let text): byteCount += text.utf8.count
                case .blob(let data): byteCount += data.count
                case .null, .integer, .real: break
                }
            }
            argumentBytes.reserve(byteCount)
            var offset = 0
            for position in values.indices {
                let index = Int32(position + 1)
                let code: Int32
                switch values[position] {
                case .null, .integer, .real:
                    code = bindNullOrNumber(values[position], at: index)
                case .text(let text):
                    let start = argumentBytes.base + offset
                    let count = Self.copyUTF8(of: text, to: start)
                    offset += count
                    // An explicit byte count keeps text after an embedded NUL character.
                    code = sqlite3_bind_text(pointer, index, start.assumingMemoryBound(to: CChar.self), Int32(clamping: count),
                                             formstore_sqlite3_static())
                case .blob(let data):
                    let start = argumentBytes.base + offset
                    data.withUnsafeBytes { bytes in
                        if let source = bytes.baseAddress { start.copyMemory(from: source, byteCount: bytes.count) }
                    }
                    offset += data.count
                    // Never a NULL pointer (that would bind NULL): an empty blob is a zero-length one.
                    code = sqlite3_bind_blob64(pointer, index, start, sqlite3_uint64(data.count), formstore_sqlite3_static())
                }
                guard code == SQLITE_OK else { throw error(code) }
            }
        }
    }

    /// Copies the UTF-8 of `text` to `start`; returns its byte count.
    private static func copyUTF8(of text: String, to start: UnsafeMutableRawPointer) -> Int {
        func copy(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
            if let source = bytes.baseAddress { start.copyMemory(from: source, byteCount: bytes.count) }
            return bytes.count
        }
        if let count = text.utf8.withContiguousStorageIfAvailable(copy) { return count }
        // A string without contiguous UTF-8 (bridged, on other platforms) is made contiguous first.
        var contiguous = text
        return contiguous.withUTF8(copy)
    }

    /// Binds the arguments and returns every row.
    ///
    /// - throws: `DatabaseError`.
    public func fetchAll(_ arguments: StatementArguments = []) throws -> [Row] {
        reset()
        try bind(arguments)
        defer { reset() }
        let names = columnNames
        var rows: [Row] = []
        while try step() {
            rows.append(Row(columnNames: names, values: (0..<names.count).map(value(at:))))
        }
        return rows
    }

    /// Binds the arguments and returns the first row, if any.
    ///
    /// - throws: `DatabaseError`.
    public func fetchOne(_ arguments: StatementArguments = []) throws -> Row? {
        reset()
        try bind(arguments)
        defer { reset() }
        guard try step() else { return nil }
        let names = columnNames
        return Row(columnNames: names, values: (0..<names.count).map(value(at:)))
    }

    // MARK: Reading columns of the current row

    /// The value of a 0-based column of the current row: the cell (`cell(at:)`)
    /// copied out of SQLite's buffer.
    public func value(at index: Int) -> DatabaseValue { DatabaseValue(cell(at: index)) }

    /// A converted value of a 0-based column of the current row.
    ///
    /// - throws: `DatabaseError` (`SQLITE_MISMATCH`) when the value does not convert.
    public func value<T: DatabaseValueConvertible>(at index: Int, as type: T.Type = T.self) throws -> T {
        let name = String(cString: sqlite3_column_name(pointer, Int32(index)))
        return try Row.convert(value(at: index), column: name)
    }

    /// True when a column of the current row is NULL.
    public func isNull(at index: Int) -> Bool {
        sqlite3_column_type(pointer, Int32(index)) == SQLITE_NULL
    }

    /// An INTEGER column of the current row (SQLite converts other classes).
    public func int64(at index: Int) -> Int64 { sqlite3_column_int64(pointer, Int32(index)) }

    /// A REAL column of the current row (SQLite converts other classes).
    public func double(at index: Int) -> Double { sqlite3_column_double(pointer, Int32(index)) }

    /// A TEXT column of the current row, `nil` when NULL.
    public func text(at index: Int) -> String? {
        switch value(at: index) {
        case .null: return nil
        case .text(let s): return s
        case .integer(let i): return String(i)
        case .real(let d): return String(d)
        case .blob(let d): return String(decoding: d, as: UTF8.self)
        }
    }

    /// A BLOB column of the current row, `nil` when NULL.
    public func blob(at index: Int) -> Data? {
        isNull(at: index) ? nil : Data.fromDatabaseValue(value(at: index)) ?? Data()
    }

    private func error(_ code: Int32) -> DatabaseError {
        DatabaseError.from(handle.pointer, code: code, sql: sql)
    }
}

@available(*, unavailable)
extension Statement: Sendable {}

/// A byte buffer that only grows, freed with its statement (after
/// `sqlite3_finalize`, so no binding outlives it): where `execute` puts the
/// bytes it binds with SQLITE_STATIC.
private final class ArgumentBytes {
    private(set) var base = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 1)
    private var capacity = 256

    /// Makes room for `byteCount` bytes; the old bytes are not kept (nothing is bound to them).
    func reserve(_ byteCount: Int) {
        guard byteCount > capacity else { return }
        base.deallocate()
        capacity = max(byteCount, capacity * 2)
        base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 1)
    }

    deinit { base.deallocate() }
}
