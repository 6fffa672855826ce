import FormCore
import FormStorage
import FormStoragePostgres

/// Import: every row validated through the form, all or nothing.
extension StorageWorkspace {
    /// Reads, parses and validates every row inside one write transaction,
    /// through cached statements, with foreign keys checked at the commit. Rows that fail are reported by line (the
    /// first hundred; the rest counted) and then nothing is kept; a dry run
    /// rolls back even when every row passed, having met every constraint.
    ///
    /// A row goes through the form's rules as a `set` or `new` of it would
    /// (`RecordPipeline`): on a frozen form a row may change only the fields
    /// editable while frozen, and an unchanged row passes.
    ///
    /// - throws: `CLIError.validation` for input that does not parse (it names
    ///   the line); `DatabaseError` when storage fails.
    /// A value its column's type refused (class 22: `invalid input syntax for
    /// type money: "abc"`), named by the field whose value the message quotes.
    static func naming(_ error: PostgresError, in input: InputRecord) -> String {
        guard error.sqlState.hasPrefix("22") else { return error.message }
        for (name, value) in input.values where !value.isEmpty {
            let text = ValueText.text(value, kind: nil, blobsBySize: false)
            if error.message.contains("\"" + text + "\"") { return "\(name): \(error.message.singleLine)" }
        }
        // Empty text refused (a CSV's empty cell for a number): the field when only one holds it.
        let empty = input.values.filter { $0.value == .text("") }
        if empty.count == 1, error.message.contains("\"\"") { return "\(empty[0].name): \(error.message.singleLine)" }
        return error.message
    }

    func importRecords(of form: Form, from reader: any RecordReader, dryRun: Bool, children: Bool) throws -> ImportSummary {
        let store = try store()
        let keyColumns = try store.keyColumns(of: form)
        // Every secure field, whatever the line gives: a line updating a stored row that holds a
        // password leaves it in the row a trigger's message may quote (`NEW.password`).
        let secureFields = form.fields.filter(\.isSecure)
        do {
            // Each imported record is a save in the history, by the login name through `command`.
            return try store.writeRecords(form, commit: !dryRun, attribution: .command) { batch in
                let importer = RecordImporter(form: form, keyColumns: batch.keyColumns, keysHoldingNull: keyColumns.map(\.holdsNull),
                                              computedColumns: batch.computedColumns, keepsDecimalDigits: batch.keepsDecimalDigits,
                                              storedDate: batch.storedDate) {
                    [unowned self] text, column in keyValue(text, column: column, of: form, keyColumns: keyColumns)
                }
                importer.childrenAsked = children
                reader.expect(names: importer.expectedNames)
                // Foreign keys are checked per row, so a refusal names its line; a row may still refer to
                // one later in the input (a parent after its child): it waits for the rest (`waiting`).
                // A constraint the schema defers (`DEFERRABLE INITIALLY DEFERRED`) waits for the commit; on
                // SQLite such a table's writes all do (a write refused per row would leave the deferred
                // key's count behind, and fail the commit of rows that are all right).
                if batch.checksSomeForeignKeysAtCommit { _ = try batch.deferForeignKeyChecks() }
                // What `foreign_key_check` finds before a dry run (a scan of the tables): what it finds after
                // is compared with it. An import that fails at the commit compares with none.
                let danglingBefore = dryRun ? try batch.foreignKeyViolationCount() : 0
                var summary = ImportSummary()
                var next = try reader.next()
                // A header naming no field is wrong for every row, even when there are none.
                if let unknown = reader.declaredColumns.map(importer.unknownColumns), !unknown.isEmpty {
                    throw InputError(line: 1, message: unknown.map { RecordImporter.notAField($0, form: form) }
                        .joined(separator: "; "))
                }
                // Rows a foreign key refused: tried again once the rows after them are in, while any gets in.
                var waiting: [InputRecord] = []
                // Those refused for want of a row of the form's own table, named by the refusal: tried
                // again as soon as a line writes that row (`ready`), so a list whose `next` keys run in
                // no order gets in during the one pass, on every store.
                var waitingFor = ReferenceWaits(table: form.tableName)
                var ready: [InputRecord] = []
                // The tables this import writes: a reference to a row of another waits for nothing.
                let writtenTables = Set(([form.tableName] + form.groups.map(\.tableName)).map { $0.lowercased() })
                // Once a row waits, the line that wrote each key: a line written after it waited is
                // refused if a later line gave the same record, which the later line would have changed.
                var someWaited = false
                // By the key's match text (`ReferenceWaits.matchText`): a key written another way (a case-blind
                // key in capitals) may name the same record, which the database then says.
                var writtenBy: [String: [(line: Int, key: RecordKey)]] = [:]
                // The key of the form's own table each waiting line last waited for, by line (`matchText`),
                // and, once only refusals are left, the line giving each key: a line refused for a row
                // another refused line gives may be in a cycle of references, which its message says.
                var waitedFor: [Int: String] = [:]
                var givenByRefused: [String: Int] = [:]
                /// Said after the refusal of `line`'s reference when the lines it waits on come back to it.
                func cycleNote(_ error: FormStoreError, line: Int) -> String {
                    guard error.reason == .missingReference, !givenByRefused.isEmpty else { return "" }
                    var lines = [line]
                    var current = line
                    while let key = waitedFor[current], let giver = givenByRefused[key], giver != current {
                        if giver == line {
                            let named = lines.sorted().map(String.init)
                            return " (lines \(named.dropLast().joined(separator: ", ")) and \(named.last!) refer to one another "
                                + "in a cycle: such rows import only where the foreign key is DEFERRABLE)"
                        }
                        guard !lines.contains(giver) else { return "" }
                        lines.append(giver)
                        current = giver
                    }
                    return ""
                }
                /// The last line after `line` that wrote the record `key` names, if any.
                func lineWriting(_ key: RecordKey, after line: Int) throws -> Int? {
                    // A group's row of the form's own table (`--children`), by its key as given.
                    var later = importer.written[form.tableName.lowercased()]?[key].flatMap { $0 > line ? $0 : nil }
                    for entry in writtenBy[ReferenceWaits.matchText(key.values)] ?? [] where entry.line > later ?? line {
                        if entry.key == key {
                            later = entry.line
                        } else if let mine = try batch.loadStored(key)?.record.key,
                                  let theirs = try batch.loadStored(entry.key)?.record.key, mine == theirs {
                            later = entry.line
                        }
                    }
                    return later
                }
                /// Writes one line, or keeps it waiting, or counts its refusal; true when written.
                /// `retried`: the line waited, so a later one may have written its record already.
                @discardableResult
                func importRow(_ input: InputRecord, lastTry: Bool, retried: Bool = false) throws -> Bool {
                    let key = someWaited ? importer.key(parsing: input) : nil
                    if retried, let key, let later = try lineWriting(key, after: input.line) {
                        summary.reject(line: input.line, ["\(form.tableName) \(key.typedText) is given by line \(later) too, "
                            + "written while this line waited for a row it refers to: give each record once"])
                        return false
                    }
                    do {
                        let unknownGroups = importer.unknownGroups(input)
                        if !unknownGroups.isEmpty {
                            throw RecordImporter.RowProblems(messages: unknownGroups.map { RecordImporter.notAField($0, form: form) })
                        }
                        func write() throws -> RecordImporter.Outcome {
                            var outcome = try importer.write(input, into: batch)
                            // A parent's child rows (import --children), written after it in the same transaction.
                            if !input.rows.isEmpty, let batch = Self.childRowBatch(batch),
                               let parent = importer.parentKey(of: input, outcome: outcome, in: batch),
                               try importer.writeRows(input, parent: parent, into: batch), outcome == .unchanged {
                                outcome = .updated
                            }
                            return outcome
                        }
                        // A line with child rows is written whole or not at all, so it may wait and be tried again.
                        var outcome = input.rows.isEmpty ? try write() : try batch.atomically(write)
                        // A record an earlier line's group made (`insertedAsRows`) is new to the import.
                        if outcome != .inserted, !importer.insertedAsRows.isEmpty, let made = importer.key(parsing: input),
                           importer.insertedAsRows.contains(made) {
                            outcome = .inserted
                        }
                        switch outcome {
                        case .inserted: summary.inserted += 1
                        case .updated: summary.updated += 1
                        case .unchanged: summary.unchanged += 1
                        }
                        if let key { writtenBy[ReferenceWaits.matchText(key.values), default: []].append((input.line, key)) }
                        if outcome != .unchanged, !waitingFor.isEmpty {
                            ready += try waitingFor.take(satisfiedBy: input) { waiting in
                                try batch.missingReference(in: importer.givenValues(waiting)) == nil
                            }
                        }
                        return true
                    } catch let problems as RecordImporter.RowProblems {
                        summary.reject(line: input.line, problems.messages)
                    } catch let error as DatabaseError where !secureFields.isEmpty
                                && SecureWriteFailure.mayQuoteValues(error) {
                        // SQLite's text could quote the row's secret: the row is refused with the schema's words only.
                        summary.reject(line: input.line, [SecureWriteFailure.message(for: error, secureFields: secureFields)])
                    } catch let error where Self.isMissingReference(error) && !lastTry {
                        // A reference to a row later in the input (a self-reference to a later key).
                        let reference = (error as? FormStoreError)?.reference
                        if let reference, !writtenTables.contains(reference.table.lowercased()) {
                            // No line of this import writes a row there.
                            summary.reject(line: input.line, ["\(error)"])
                        } else if let reference, waitingFor.add(input, waitingFor: reference) {
                            if reference.columns.map({ $0.lowercased() }) == batch.keyColumns.map({ $0.lowercased() }) {
                                waitedFor[input.line] = ReferenceWaits.matchText(reference.values)
                            }
                            someWaited = true
                        } else {
                            waiting.append(input)
                            someWaited = true
                        }
                    } catch let error as DatabaseError where error.isRowProblem {
                        summary.reject(line: input.line, [error.isMalformedJSON ? DatabaseError.malformedJSONText
                                                          : error.message ?? "rejected by the database"])
                    } catch let error as FormStoreError where [.inexactNumber, .badKey, .missingReference, .ignoredWrite].contains(error.reason) {
                        // A number its column would store as another, or a key naming two rows (an untyped
                        // key column holding 1 and '1'): the row's problem, named by its line.
                        summary.reject(line: input.line, [error.message + cycleNote(error, line: input.line)])
                    } catch let error as PostgresStoreError where error.reason == .notHeld || error.reason == .ignoredWrite {
                        // A value its column would store as another (numeric(6,2) given 1.255): the row's problem.
                        summary.reject(line: input.line, [error.message])
                    } catch let error as PostgresError where error.isRowProblem {
                        // The primary message only: PostgreSQL's detail line quotes the row's values, and with a
                        // secure field in the form not even that, unless it is a type error (class 22, which
                        // quotes the one value it refused) quoting none of the line's secure values.
                        let given = secureFields.compactMap { input.values[$0.key] }.filter { !$0.isEmpty }
                            .map { ValueText.text($0, kind: nil, blobsBySize: false) }
                        let secure = SecureWriteFailure.quotesNone(error, of: given) ? [] : secureFields
                        summary.reject(line: input.line, [secure.isEmpty ? Self.naming(error, in: input)
                            : "rejected by the database (SQLSTATE \(error.sqlState)); its message is left out, "
                              + "as it may quote the secure field(s) \(secure.map(\.key).joined(separator: ", "))"])
                    }
                    return false
                }
                /// The rows the last writes let in, and those theirs let in, each in input order.
                func importReady() throws {
                    while !ready.isEmpty {
                        let woken = ready.sorted { $0.line < $1.line }
                        ready = []
                        for input in woken { try importRow(input, lastTry: false, retried: true) }
                    }
                }
                while var input = next {
                    if !form.groups.isEmpty { input = input.withEmptyGroups(of: form) }
                    try importRow(input, lastTry: false)
                    try importReady()
                    next = try reader.next()
                }
                waiting = (waiting + waitingFor.takeAll()).sorted { $0.line < $1.line }
                // Rows that wait for later ones, written once with the checks left to the commit (SQLite): in
                // any order they all get in, where rounds of tries took one round a row of a chain of
                // `next` keys in no order (quadratic). Each is then checked against what is stored, by the
                // values it gave (an update's, a WITHOUT ROWID row's too) and by its rowid (a key of several
                // columns), and one still referring to no row is named by line: the commit's count of
                // dangling references alone let one through when the import mended a dangling row as well.
                if !waiting.isEmpty, try batch.deferForeignKeyChecks() {
                    let round = waiting
                    waiting = []
                    var written: [(input: InputRecord, rowID: Int64?)] = []
                    for input in round {
                        let before = batch.lastInsertedRowID
                        if try importRow(input, lastTry: true, retried: true) {
                            written.append((input, batch.lastInsertedRowID != before ? batch.lastInsertedRowID : nil))
                        }
                    }
                    let missing = try batch.missingReferences(amongRowIDs: Set(written.compactMap(\.rowID)))
                    for (input, rowID) in written {
                        if let message = try batch.missingReference(in: importer.givenValues(input)) ?? rowID.flatMap({ missing[$0] }) {
                            summary.reject(line: input.line, [message])
                        }
                    }
                }
                // Elsewhere (PostgreSQL's constraints not declared DEFERRABLE), the rows no later line let in:
                // those referring to a row of another table, or by a key of several columns, or to no row at
                // all. Rounds of tries; each goes the other way, so rows referring to later ones in order all
                // get in on the first.
                var backwards = true
                while !waiting.isEmpty {
                    let round = waiting
                    waiting = []
                    for input in backwards ? round.reversed() : round {
                        try importRow(input, lastTry: false, retried: true)
                        try importReady()
                    }
                    waiting += waitingFor.takeAll()
                    backwards.toggle()
                    // None got in: each refers to a row neither stored nor imported, and is refused.
                    if waiting.count == round.count {
                        let refused = waiting
                        waiting = []
                        for input in refused {
                            if let key = importer.key(parsing: input) { givenByRefused[ReferenceWaits.matchText(key.values)] = input.line }
                        }
                        for input in refused { try importRow(input, lastTry: true, retried: true) }
                    }
                }
                if summary.failedRows > 0 { throw ImportRejected(summary: summary) }
                // The commit's check of the references left to it, asked first (a dry run never reaches
                // the commit). SQLite's count of them can stay up although `foreign_key_check` finds every
                // row (`RecordBatch.commitWouldFailForReferences`): the message then says so.
                if try batch.commitWouldFailForReferences() {
                    if try batch.foreignKeyViolationCount() <= danglingBefore {
                        throw CLIError.validation("FOREIGN KEY constraint failed at the end of the import, although each row "
                            + "refers to a record that exists: SQLite counted a reference as missing where a column without a type "
                            + "holding a number refers to a TEXT key and its row came later; giving such a reference as text "
                            + "(\"2\" for 2) lets it through; nothing was imported")
                    }
                    throw CLIError.validation("FOREIGN KEY constraint failed at the end of the import "
                        + "(a row refers to a record that neither exists nor is imported); nothing was imported")
                }
                if dryRun, try batch.foreignKeyViolationCount() > danglingBefore {
                    throw CLIError.validation("FOREIGN KEY constraint failed at the end of the import "
                        + "(a row refers to a record that neither exists nor is imported); nothing was imported")
                }
                return summary
            }
        } catch let rejected as ImportRejected {
            return rejected.summary
        } catch let error as InputError {
            throw CLIError.validation("\(error.description); nothing was imported")
        } catch let error as DatabaseError where error.isConstraint {
            // Foreign keys are checked at the commit: some row refers to a record that does not exist.
            throw CLIError.validation("\(error.message ?? "a constraint failed") at the end of the import "
                + "(a row refers to a record that neither exists nor is imported); nothing was imported")
        } catch let error as PostgresError where error.isForeignKeyViolation {
            throw CLIError.validation("\(error.message) at the end of the import "
                + "(a row refers to a record that neither exists nor is imported); nothing was imported")
        }
    }

    /// A foreign key refused the row: it may refer to a row later in the input.
    private static func isMissingReference(_ error: any Error) -> Bool {
        switch error {
        case let error as FormStoreError: error.reason == .missingReference
        case let error as DatabaseError: error.isForeignKeyViolation
        case let error as PostgresError: error.isForeignKeyViolation
        default: false
        }
    }

    /// The batch child rows are written through (`import --children`): every store's batch writes them.
    private static func childRowBatch(_ batch: any RecordWriting) -> (any ChildRowWriting)? {
        batch as? any ChildRowWriting
    }
}

/// Ends the import's transaction without keeping anything, carrying what to report.
private struct ImportRejected: Error {
    var summary: ImportSummary
}

extension ImportSummary {
    /// Counts a failed row and keeps its problems if they are of the first
    /// lines that failed: a row that waited for later ones is refused after
    /// them, and its problem was left out of a full list while later lines' were shown.
    mutating func reject(line: Int, _ messages: [String]) {
        failedRows += 1
        for message in messages {
            if failures.count < Self.reportedFailureLimit {
                failures.append(InputError(line: line, message: message))
            } else if let last = failures.indices.max(by: { failures[$0].line < failures[$1].line }),
                      failures[last].line > line {
                failures[last] = InputError(line: line, message: message)
            }
        }
    }
}

extension PostgresError {
    /// PostgreSQL refused this row's values: a constraint (class 23), a value
    /// its column's type cannot hold (class 22, data exception), or a trigger
    /// that raised an exception or failed an assertion (P0001, P0004), as
    /// SQLite's `RAISE(ABORT, …)` refuses a row.
    var isRowProblem: Bool {
        isConstraint || sqlState.hasPrefix("22") || sqlState == "P0001" || sqlState == "P0004"
    }
}

extension DatabaseError {
    /// SQLite refused this row's values (a constraint, a type, a size), not the file.
    var isRowProblem: Bool {
        isConstraint || resultCode == .SQLITE_MISMATCH || resultCode == .SQLITE_TOOBIG || isMalformedJSON
    }

    /// A generated column, index, CHECK or view reads a column as JSON
    /// (`json_extract`, `->>`), and the value there is not JSON.
    var isMalformedJSON: Bool { resultCode == .SQLITE_ERROR && message == "malformed JSON" }

    /// What `isMalformedJSON` is said as.
    static let malformedJSONText = "the database's schema reads a value as JSON, and it is not JSON (SQLite: malformed JSON)"
}
