import CLibPQ

/// The rows a statement returned, in libpq's text format; owns the `PGresult`
/// and clears it in `deinit`.
public final class PostgresResult {
    private let handle: OpaquePointer

    init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    deinit { PQclear(handle) }

    public var rowCount: Int { Int(PQntuples(handle)) }
    public var columnCount: Int { Int(PQnfields(handle)) }

    /// Rows an INSERT, UPDATE or DELETE changed (libpq's `PQcmdTuples`).
    public var changedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    /// The type OID of a column (`pg_type.oid`), which decides how its text reads.
    public func typeOID(column: Int) -> UInt32 { PQftype(handle, Int32(column)) }

    public func columnName(_ column: Int) -> String { String(cString: PQfname(handle, Int32(column))) }

    /// The text of one value; nil for NULL.
    public func text(row: Int, column: Int) -> String? {
        if PQgetisnull(handle, Int32(row), Int32(column)) != 0 { return nil }
        return String(cString: PQgetvalue(handle, Int32(row), Int32(column)))
    }
}

@available(*, unavailable)
extension PostgresResult: Sendable {}
