public import FormCore
import Synchronization

/// Hearing other writers: `CommitObserving` for PostgreSQL, with `LISTEN` and
/// `NOTIFY`. While anyone listens, each table the store maps carries FormStore's
/// trigger `formstore_notify` (installed when the listening starts for tables
/// already mapped, else when a table is first mapped while it runs; it stays
/// installed), which on every row written sends, at commit, a notification on
/// the channel `formstore` whose payload names the table and the row's key:
/// `{"key": {"id": 7}, "table": "people"}`. One connection of the store's own
/// waits for them on its socket; a notification from one of the store's own
/// pool connections is the store's own commit and is not passed on. Nothing is
/// read on a timer.
extension PostgresFormStore: CommitObserving {
    /// The channel FormStore's trigger notifies.
    public static let notifyChannel = "formstore"

    public func observeCommits(_ onCommit: @escaping @Sendable () -> Void) throws -> CommitObservation {
        let (id, tables) = try commitListeners.state.withLock { state -> (Int, [PostgresTable]) in
            if state.listener == nil {
                state.listener = try PostgresNotificationListener(url: pool.url, channel: Self.notifyChannel) {
                    [weak self] notifications in self?.heard(notifications)
                }
            }
            state.next += 1
            state.listeners[state.next] = onCommit
            return (state.next, state.tables.values.filter { !state.triggered.contains($0.name) })
        }
        let observation = CommitObservation { [weak self] in self?.stopListening(id) }
        // After LISTEN: a commit from here on is heard.
        for table in tables { try installNotifyTrigger(table) }
        return observation
    }

    /// Whether the listening connection for other writers runs.
    public var isWatchingCommits: Bool { commitListeners.isWatching }

    /// The tables whose writes by others are not heard, with why: this role
    /// may not create FormStore's notify trigger on them (it needs CREATE on
    /// the schema and to own the table). Everything else works on them.
    public var unwatchedTables: [String: String] { commitListeners.state.withLock { $0.unwatched } }

    /// Remembers a table the store mapped and, while anyone listens, gives it the trigger.
    func installNotifyTriggerIfWatching(_ table: PostgresTable) throws {
        let install = commitListeners.state.withLock { state -> Bool in
            state.tables[table.name] = table
            return state.listener != nil && !state.triggered.contains(table.name)
        }
        if install { try installNotifyTrigger(table) }
    }

    private func stopListening(_ id: Int) {
        commitListeners.state.withLock { state in
            guard state.listeners.removeValue(forKey: id) != nil, state.listeners.isEmpty else { return }
            state.listener?.stop()
            state.listener = nil
        }
    }

    /// Passes a wake-up on unless every notification in it came from the store's own commits.
    private func heard(_ notifications: [PostgresNotification]?) {
        if let notifications, notifications.allSatisfy({ pool.ownsBackend($0.senderPID) }) { return }
        let listeners = commitListeners.state.withLock { Array($0.listeners.values) }
        for listener in listeners { listener() }
    }

    /// Creates `formstore_notify()` and the table's trigger when missing, in
    /// one transaction under an advisory lock (two processes may start
    /// watching at once). A view gets none: its writes land in a table, whose
    /// own trigger (if FormStore maps it) tells.
    private func installNotifyTrigger(_ table: PostgresTable) throws {
        do {
            try createNotifyTrigger(table)
        } catch let error as PostgresError where error.sqlState == "42501" || error.sqlState == "25006" {
            // A role that may read and write the table but not add a trigger to it, or a store that only
            // reads (`PostgresPool.readOnly`): the table works as ever, only other writers' commits to it
            // go unheard (`unwatchedTables` says so) until a store that may write installs the trigger.
            commitListeners.state.withLock { state in
                state.triggered.insert(table.name)
                state.unwatched[table.name] = error.message
            }
        }
    }

    private func createNotifyTrigger(_ table: PostgresTable) throws {
        let quoted = quoteIdentifier(table.name)
        try pool.write { conn in
            try conn.execute("SELECT pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext($1))", ["formstore_notify"])
            let found = try conn.execute("""
                SELECT c.relkind::text, EXISTS (SELECT 1 FROM pg_catalog.pg_trigger t
                                                WHERE t.tgrelid = c.oid AND t.tgname = 'formstore_notify'),
                       COALESCE((SELECT p.prosrc LIKE '%' || $2 || '%' FROM pg_catalog.pg_proc p
                                 WHERE p.oid = pg_catalog.to_regprocedure('formstore_notify()')), false)
                FROM pg_catalog.pg_class c WHERE c.oid = pg_catalog.to_regclass($1)
                """, [quoted, Self.notifyFunctionMark])
            guard found.rowCount == 1, ["r", "p"].contains(found.text(row: 0, column: 0)) else { return }
            // Missing, or an older one (which sent any key, however long): made anew.
            if found.text(row: 0, column: 2) != "t" { try conn.executeScript(Self.notifyFunctionSQL) }
            if found.text(row: 0, column: 1) != "t" {
                let keys = table.primaryKey.map { "'" + $0.replacing("'", with: "''") + "'" }
                try conn.executeScript("""
                    CREATE TRIGGER formstore_notify AFTER INSERT OR UPDATE OR DELETE ON \(quoted)
                    FOR EACH ROW EXECUTE FUNCTION formstore_notify(\(keys.joined(separator: ", ")))
                    """)
            }
        }
        commitListeners.state.withLock { _ = $0.triggered.insert(table.name) }
    }

    /// Text only the current trigger function holds (its payload's limit).
    static let notifyFunctionMark = "formstore_notify v2"

    /// The trigger function: the trigger's arguments name the key columns,
    /// read from the row written (the old row of a delete). A payload past
    /// what `pg_notify` takes (8000 bytes: a long text key) names the table
    /// alone: otherwise the server would refuse the write itself, anyone's.
    static let notifyFunctionSQL = """
        CREATE OR REPLACE FUNCTION formstore_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        -- \(notifyFunctionMark)
        DECLARE
            written jsonb;
            record_key jsonb := '{}';
            key_column text;
            payload text;
        BEGIN
            IF TG_OP = 'DELETE' THEN written := to_jsonb(OLD); ELSE written := to_jsonb(NEW); END IF;
            IF TG_NARGS > 0 THEN
                FOREACH key_column IN ARRAY TG_ARGV LOOP
                    record_key := record_key || jsonb_build_object(key_column, written -> key_column);
                END LOOP;
            END IF;
            payload := jsonb_build_object('table', TG_TABLE_NAME, 'key', record_key)::text;
            IF octet_length(payload) > 7000 THEN
                payload := jsonb_build_object('table', TG_TABLE_NAME, 'key', NULL)::text;
            END IF;
            PERFORM pg_notify('formstore', payload);
            RETURN NULL;
        END
        $$;
        """
}
