import CSQLite
import Synchronization

/// Hears the SQL of each statement as it starts running (`sqlite3_trace_v2`,
/// `SQLITE_TRACE_STMT`): the text as prepared, never the bound values, which
/// may be secrets. For tests and benchmarks that count what a feature runs.
final class StatementTracer: Sendable {
    let handler: @Sendable (String) -> Void

    init(_ handler: @escaping @Sendable (String) -> Void) { self.handler = handler }
}

extension Connection {
    /// Takes `tracer` (or stops tracing with `nil`) unless it has it already.
    func use(_ tracer: StatementTracer?) {
        guard self.tracer !== tracer else { return }
        self.tracer = tracer
        guard let tracer else {
            sqlite3_trace_v2(handle.pointer, 0, nil, nil)
            return
        }
        sqlite3_trace_v2(handle.pointer, UInt32(SQLITE_TRACE_STMT), { _, context, statement, _ in
            guard let context, let statement else { return 0 }
            let tracer = Unmanaged<StatementTracer>.fromOpaque(context).takeUnretainedValue()
            let sql = sqlite3_sql(OpaquePointer(statement)).map { String(cString: $0) } ?? ""
            tracer.handler(sql)
            return 0
        }, Unmanaged.passUnretained(tracer).toOpaque())
    }
}

extension Database {
    /// Calls `handler` with the SQL of every statement this database's
    /// connections run from now on (bound values left out); `nil` stops.
    ///
    /// ```swift
    /// let count = Atomic<Int>(0)
    /// store.database.traceStatements { _ in count.add(1, ordering: .relaxed) }
    /// ```
    ///
    /// See <https://www.sqlite.org/c3ref/trace_v2.html>.
    public func traceStatements(_ handler: (@Sendable (String) -> Void)?) {
        let tracer = handler.map(StatementTracer.init)
        self.tracer.withLock { $0 = tracer }
        _ = try? writeWithoutTransaction { conn in conn.use(tracer) }
    }
}
