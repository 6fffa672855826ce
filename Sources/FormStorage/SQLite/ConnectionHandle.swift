import CSQLite

/// Owns an `sqlite3*`: closes it when the last user (a connection or one of
/// its statements) lets go, even when opening failed half-way.
final class ConnectionHandle {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        // close_v2 defers the close until every statement is finalized, so the order
        // in which statements and the connection are released does not matter.
        sqlite3_close_v2(pointer)
    }
}

@available(*, unavailable)
extension ConnectionHandle: Sendable {}
