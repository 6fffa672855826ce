import CLibPQ

/// A notification a connection received (`LISTEN`): its channel, its payload
/// and the server process whose commit sent it.
public struct PostgresNotification: Sendable, Hashable {
    public let channel: String
    public let payload: String
    public let senderPID: Int32
}

/// Receiving notifications without a query: the connection's socket turns
/// readable when the server sends one, and `takeNotifications()` reads what
/// arrived. See <https://www.postgresql.org/docs/current/libpq-notify.html>.
extension PostgresConnection {
    /// The connection's socket, to wait on with `poll` (-1 when it is closed).
    public var socket: Int32 { PQsocket(handle) }

    /// Reads what the server sent and returns the notifications it held (none
    /// when the wake-up was something else).
    ///
    /// - throws: `PostgresError` (connection lost) when the socket closed or broke.
    public func takeNotifications() throws -> [PostgresNotification] {
        guard PQconsumeInput(handle) == 1 else {
            throw PostgresError.connectionLost(String(cString: PQerrorMessage(handle)), sql: nil)
        }
        var notifications: [PostgresNotification] = []
        while let notify = PQnotifies(handle) {
            notifications.append(PostgresNotification(channel: String(cString: notify.pointee.relname),
                                                      payload: String(cString: notify.pointee.extra),
                                                      senderPID: notify.pointee.be_pid))
            PQfreemem(notify)
        }
        return notifications
    }
}
