import FoundationEssentials
import FormBasics
import FormCore
import FormStorage

/// Turns one input row into a record and writes it to a batch: each value
/// parsed through its field (text as if typed; a number, a BLOB or a date as
/// stored), then taken through the form's `RecordPipeline` (the rules a
/// session's save follows: what may change, what is validated, what is
/// written): a new row with every field validated, or, when its key names a
/// stored record, only the values that differ from what is stored, and only
/// those validated (docs/fidelity.md).
///
/// Each value is passed on as it arrived (`like:`), so a row that export
/// wrote imports back byte for byte, in the column's own form.
final class RecordImporter {
    enum Outcome { case inserted, updated, unchanged }

    /// The row's problems, one `field: message` each; nothing of it was written.
    struct RowProblems: Error {
        var messages: [String]
    }

    let form: Form
    /// The table's key columns, in key order.
    let keyColumns: [String]
    /// By key column, whether a stored row may hold NULL there
    /// (`RecordKeyColumn.holdsNull`): a NULL given for it names that row.
    let keysHoldingNull: [Bool]
    /// A key value typed as text, converted as the workspace converts keys.
    let keyValue: (_ text: String, _ column: String) -> FieldValue
    /// A value as a date field's column may store it, read as a date (`RecordWriting.storedDate`).
    let storedDate: (_ value: FieldValue, _ field: String) -> Date?
    /// The form's rules, prepared once for every row.
    let pipeline: RecordPipeline
    /// `pipeline` of the form with its key fields that may hold NULL let hold
    /// it: a new row whose key arrived as `null` (an export of a row keyed so,
    /// into an empty copy) is that row, where the form asks a person for a key.
    /// Nil when no key column takes NULL.
    private let nullKeyPipeline: RecordPipeline?
    /// Columns the database computes: a new row's value for one is not written (nor refused).
    private let computedColumns: Set<String>
    /// The store keeps a decimal's every digit (`RecordWriting.keepsDecimalDigits`).
    private let keepsDecimalDigits: Bool
    /// Whether the last keyed row was stored: the next is looked up before
    /// it is offered as new (see `write`).
    private var lookUpFirst = false
    /// Each key column's slot (nil: no field holds it).
    private let keySlots: [Int?]
    /// By key column, whether its field reads a date: its key is the value
    /// as it arrived (an export's stored text), as the store keeps such a key
    /// (`TableMapping`): as the date it reads as, it found the row of another
    /// layout holding the same instant.
    private let keysKeptAsArrived: [Bool]
    /// By slot, the position in `keyColumns` of the key column the slot's field holds (nil: none).
    private let keyPositions: [Int?]
    /// By slot, whether the field has a default (`holdsDefault`).
    private let hasDefault: [Bool]
    /// The slots of secure fields, whose `ValueText.mask` (what `list` and
    /// `show` print for them) is no value (`isMask`); empty for most forms.
    private let secureSlots: Set<Int>
    /// With `--children`: each child row written so far (updated, deleted,
    /// or inserted under a key it names), by table and key, with its line;
    /// on a table whose group is the table itself (an employee's reports),
    /// the lines' own records too. A record written by two lines is refused:
    /// the later write would silently undo the earlier, or move a row from
    /// one parent to another, blanking what the line left out (`claim`).
    var written: [String: [RecordKey: Int]] = [:]
    /// With `--children`: the line that stated each record's rows. A group's
    /// array is the whole group, so a second line stating them would delete
    /// what the first named (`writeRows`).
    var rowsStated: [RecordKey: Int] = [:]
    /// Whether some group's rows are records of the form's own table.
    let hasGroupOfOwnTable: Bool
    /// With `--children`, the records of the form's own table a group's new
    /// rows made (an employee's reports): each is new to the import when its
    /// own line comes (an export lists it as a line too), which found it
    /// stored and counted it updated or unchanged.
    var insertedAsRows: Set<RecordKey> = []
    /// Whether `--children` was given: a member holding rows that names no
    /// group is then not told to add it.
    var childrenAsked = false
    /// Keys holding NULL that this import inserted rows under. NULL is no key
    /// to another row (SQLite keeps each such row apart), so a later line keyed
    /// so is a new row, not an update of the one an earlier line made: an
    /// export of two rows keyed `null` imported into an empty copy as one.
    private var nullKeysInserted: Set<RecordKey> = []
    /// The last row's names, by position, and their slots (`slot(of:at:)`).
    private var recentSlots: [(name: String, slot: Int?)?] = []

    init(form: Form, keyColumns: [String], keysHoldingNull: [Bool] = [], computedColumns: Set<String> = [],
         keepsDecimalDigits: Bool = false, storedDate: @escaping (_ value: FieldValue, _ field: String) -> Date?,
         keyValue: @escaping (_ text: String, _ column: String) -> FieldValue) {
        self.form = form
        self.keyColumns = keyColumns
        self.keysHoldingNull = keyColumns.indices.map { $0 < keysHoldingNull.count && keysHoldingNull[$0] }
        self.storedDate = storedDate
        self.keyValue = keyValue
        self.computedColumns = computedColumns
        self.keepsDecimalDigits = keepsDecimalDigits
        pipeline = CompiledForm.of(form).pipeline
        let nullKeys = keyColumns.indices.filter { $0 < keysHoldingNull.count && keysHoldingNull[$0] }.map { keyColumns[$0] }
        if nullKeys.isEmpty {
            nullKeyPipeline = nil
        } else {
            var taking = form
            for s in taking.sections.indices where taking.sections[s].group == nil {
                for f in taking.sections[s].fields.indices where nullKeys.contains(taking.sections[s].fields[f].key) {
                    taking.sections[s].fields[f].isNotNull = false
                }
            }
            nullKeyPipeline = CompiledForm.of(taking).pipeline
        }
        let keySlots = keyColumns.map(pipeline.slot)
        self.keySlots = keySlots
        let kinds = pipeline.kinds
        keysKeptAsArrived = keySlots.map { $0.map { kinds[$0].isDateLike } ?? false }
        keyPositions = pipeline.fields.indices.map { keySlots.firstIndex(of: $0) }
        hasDefault = pipeline.defaultValues.slots.map { $0 != nil }
        let fields = pipeline.fields
        secureSlots = Set(fields.indices.filter { fields[$0].isSecure })
        hasGroupOfOwnTable = form.groups.contains { $0.tableName.equalsIgnoringCase(form.tableName) }
    }

    /// Notes that `line` writes the record with `key` of `table` (by
    /// default the form's own, when a group's rows are of it too); refuses
    /// the write when another line wrote it already.
    ///
    /// - throws: `RowProblems` naming both lines.
    func claim(_ key: RecordKey, of table: String? = nil, line: Int) throws {
        guard table != nil || hasGroupOfOwnTable else { return }
        let table = table ?? form.tableName
        if let earlier = written[table.lowercased()]?[key], earlier != line {
            throw RowProblems(messages: ["\(table) \(key.typedText) is written by line \(earlier) too (as a line or "
                                         + "as a row of a group): give each record once"])
        }
        written[table.lowercased(), default: [:]][key] = line
    }

    /// Whether `raw` is the mask `list` and `show` print for the secure
    /// field at `slot`: read back, it is no value (the field is left as it
    /// is, or a new record's takes its default), never a password of `••••`.
    private func isMask(_ raw: FieldValue, slot: Int?) -> Bool {
        guard !secureSlots.isEmpty, let slot, secureSlots.contains(slot) else { return false }
        return pipeline.fields[slot].isShownSecret(raw)
    }

    /// Writes one row.
    ///
    /// A row carrying its whole key is first offered as a new record, when
    /// it validates as one: `insertIfKeyIsFree` leaves a stored key to the
    /// INSERT (`ON CONFLICT … DO NOTHING`), so a new row costs no lookup.
    /// Only when the key is stored (or the store cannot tell) is the row
    /// looked up and, if found, compared with what is stored. After a row
    /// that was stored the next is looked up first: an export imported back
    /// is all stored rows.
    ///
    /// - throws: `RowProblems` for a row that does not parse or validate;
    ///   `DatabaseError` or `PostgresError` when the database refuses it (a constraint) or fails.
    func write(_ input: InputRecord, into batch: any RecordWriting) throws -> Outcome {
        // NULL names no row another line of this import made: such a line is a row of its own.
        if !nullKeysInserted.isEmpty, let key = key(parsing: input), nullKeysInserted.contains(key) {
            let row = parsedAsNew(input)
            return try insert(row, plan: plan(row), line: input.line, into: batch)
        }
        if lookUpFirst, let key = key(parsing: input) {
            if let (stored, storedValues) = try batch.loadStored(key) {
                return try update(stored, storedValues: storedValues, with: input, in: batch)
            }
            lookUpFirst = false
            let row = parsedAsNew(input)
            return try insert(row, plan: plan(row), line: input.line, into: batch)
        }
        let row = parsedAsNew(input)
        let plan = plan(row)
        guard row.hasKey(holdingNull: keysHoldingNull) else { return try insert(row, plan: plan, line: input.line, into: batch) }
        // A NULL key is no conflict to `ON CONFLICT`: such a row is looked up.
        if case .insert(let values) = plan, row.problems.isEmpty, !row.keys.contains(.some(.null)), row.lossyKeyColumn == nil {
            try claim(row.key(columns: keyColumns), line: input.line)
            do {
                if try batch.insertIfKeyIsFree(row.withKeys(values, columns: keyColumns, slots: keySlots, keptAsArrived: keysKeptAsArrived), arrived: row.arrived) {
                    return .inserted
                }
            } catch {
                // A row breaking NOT NULL or CHECK as a new record may be an update that leaves those columns.
                guard let (stored, storedValues) = try batch.loadStored(row.key(columns: keyColumns)) else { throw error }
                lookUpFirst = true
                return try update(stored, storedValues: storedValues, with: input, in: batch)
            }
        }
        if let (stored, storedValues) = try batch.loadStored(row.key(columns: keyColumns)) {
            lookUpFirst = true
            return try update(stored, storedValues: storedValues, with: input, in: batch)
        }
        return try insert(row, plan: plan, line: input.line, into: batch)
    }

    /// The key of a row giving every key column a value (none NULL but
    /// where a stored row may hold it), each parsed as its field or key
    /// column parses it (`value(position)`, by position in `keyColumns`).
    private func key(_ value: (Int) -> FieldValue?) -> RecordKey? {
        var values: [FieldValue] = []
        for index in keyColumns.indices {
            guard let parsed = value(index), parsed != .null || keysHoldingNull[index] else { return nil }
            values.append(parsed)
        }
        return values.isEmpty ? nil : RecordKey(columns: keyColumns, values: values)
    }

    /// The key of `input`, only its key columns parsed.
    func key(parsing input: InputRecord) -> RecordKey? {
        key { index in
            let column = keyColumns[index]
            guard let raw = input.values[column] else { return nil }
            // A number as written where a text field takes it so (`1e2`), as the row is stored.
            guard let parsed = try? parse(raw, name: column, slot: pipeline.slot(column),
                                          written: input.values.writtenNumber(column)) else { return nil }
            return keyValue(parsed, arrived: raw, at: index)
        }
    }

    /// The key value of the key column at `index` (in `keyColumns`): `parsed`,
    /// or for a date the value as it `arrived` (`keysKeptAsArrived`).
    private func keyValue(_ parsed: FieldValue, arrived: FieldValue, at index: Int) -> FieldValue {
        guard keysKeptAsArrived[index], case .date = parsed else { return parsed }
        switch arrived {
        case .text, .int, .double: return arrived
        default: return parsed
        }
    }

    /// An input row read as a new record, laid out by slot.
    private struct NewRow {
        /// Each field's default, then the parsed values; key columns no field names beside the slots.
        var values: RecordValues
        /// The values as they arrived, by slot (and beside the slots).
        var arrived: RecordValues
        /// The slots given a value other than the default.
        var given: [Int] = []
        var problems: [Problem] = []
        /// The key columns' values as parsed, in key order (`nil`: none),
        /// written whether or not a field holds them.
        var keys: [FieldValue?]

        /// Whether the row gives every key column a value, none NULL but
        /// where `holdingNull` (by key column) says a stored row may hold it: it has a key.
        func hasKey(holdingNull: [Bool]) -> Bool {
            !keys.isEmpty && !zip(keys, holdingNull).contains { key, holdsNull in
                switch key {
                case .none: true
                case .some(.null): !holdsNull
                default: false
                }
            }
        }

        /// A key column's text holding U+FFFD, which an export writes for bytes
        /// that are not UTF-8: no stored row is found by it, and inserting it
        /// made a second row beside the one exported (refused by `insert`).
        var lossyKeyColumn: Int? {
            keys.firstIndex { $0?.textValue?.unicodeScalars.contains("\u{FFFD}") == true }
        }

        /// The row's key (it `hasKey`), made only when it must be looked up: a new row's insert needs none.
        func key(columns: [String]) -> RecordKey {
            RecordKey(columns: columns, values: keys.map { $0! })
        }

        /// The planned record with the key columns' (`columns`) values;
        /// `slots`: each key column's slot, nil for one no field holds.
        /// A date key (`keysKeptAsArrived`) is its field's value already.
        func withKeys(_ planned: RecordValues, columns: [String], slots: [Int?], keptAsArrived: [Bool]) -> RecordValues {
            var values = planned
            for (((column, slot), key), kept) in zip(zip(zip(columns, slots), keys), keptAsArrived) where !(kept && slot != nil) {
                // A key a field holds is there already: the values are copied only to add one.
                let held = slot.map { values.slots[$0] } ?? values[column]
                guard let key, held.map({ !RecordImporter.identical($0, key) }) ?? true else { continue }
                values[column] = key
            }
            return values
        }
    }

    /// The values `input` gives, by field, parsed as a new row's are, and
    /// its key columns': what a check of the references it writes reads.
    func givenValues(_ input: InputRecord) -> [String: FieldValue] {
        let row = parsedAsNew(input)
        var values: [String: FieldValue] = [:]
        for (name, _) in input.values {
            if let slot = pipeline.slot(name), let value = row.values.slots[slot] { values[name] = value }
        }
        for (column, key) in zip(keyColumns, row.keys) { if let key { values[column] = key } }
        return values
    }

    /// Parses each value of `input` through its field (or key column).
    private func parsedAsNew(_ input: InputRecord) -> NewRow {
        // Laid out by `expectedNames` (the layout's keys), the values as they arrived are by slot already.
        let laidOut = input.values.laidOut(by: pipeline.layout)
        // A flag, not the optional record, asked per value: asking the record copied it.
        let arrived = laidOut != nil
        let defaults = pipeline.defaultValues.slots
        // By slot, the record starts as the values arrived, sharing their storage: a value
        // that parses to itself (the usual one) is left where it is, so no row copies its
        // values (issue 14). A slot the row leaves empty takes its field's default.
        var row = if let laidOut {
            NewRow(values: laidOut, arrived: laidOut, keys: [])
        } else {
            NewRow(values: pipeline.defaultValues, arrived: RecordValues(layout: pipeline.layout), keys: [])
        }
        // Filled in place: an array made first and handed over was still shared when written, so copied.
        row.keys.reserveCapacity(keyColumns.count)
        for _ in keyColumns { row.keys.append(nil) }
        if arrived {
            // Only the slots with a default: reading every slot's default copied each value, per row.
            for slot in pipeline.defaultedSlots where row.values.slots[slot] == nil {
                row.values.slots[slot] = defaults[slot]
            }
        }
        row.given.reserveCapacity(input.values.names.count)
        // By position: the rows of a reader told `expectedNames` share one array of names.
        for (position, name) in input.values.names.enumerated() {
            guard let raw = input.values[at: position] else { continue }
            // The field's slot, found once per value: the rest reads the field in place. Laid out
            // by the layout (`arrived`), the values are by slot: a value's position is its slot.
            let slot = arrived ? position : slot(of: name, at: position)
            if isMask(raw, slot: slot), let slot {
                if arrived { row.values.slots[slot] = defaults[slot] }
                continue
            }
            if !arrived {
                if let slot { row.arrived.slots[slot] = raw } else { row.arrived.others[name] = raw }
            }
            let value: FieldValue
            // Asked with `if let`: through `slot.map` the closure took its own copy of the value.
            let keptAsIs = if let slot { takesAsIs(raw, slot: slot) } else { false }
            if keptAsIs {
                value = raw
            } else {
                do {
                    value = try parse(raw, name: name, slot: slot, new: true, written: input.values.writtenNumber(at: position))
                } catch {
                    row.problems.append(error)
                    // The record holds the field's default, as it would without the value.
                    if arrived, let slot { row.values.slots[slot] = defaults[slot] }
                    continue
                }
            }
            // A field's key column found by its slot: comparing the name with each key column's cost a string compare per value.
            if let key = slot.map({ keyPositions[$0] }) ?? keyColumns.firstIndex(of: name) {
                row.keys[key] = keyValue(value, arrived: raw, at: key)
            }
            guard let slot else { continue }
            guard computedColumns.isEmpty || !computedColumns.contains(name) else {
                if arrived { row.values.slots[slot] = defaults[slot] }
                continue
            }
            // A value the new record holds anyway (its default) is no change: an export imports back.
            if !holdsDefault(value, slot: slot) { row.given.append(slot) }
            if !arrived || !(keptAsIs || Self.isSame(value, raw)) { row.values.slots[slot] = value }
        }
        return row
    }

    /// Whether `value` is what a new record holds at `slot` anyway: its
    /// field's default, or NULL for a field without one (read with no copy of
    /// a default, per value).
    private func holdsDefault(_ value: FieldValue, slot: Int) -> Bool {
        guard hasDefault[slot] else {
            if case .null = value { return true }
            return false
        }
        return Self.identical(value, pipeline.defaultValues.slots[slot] ?? .null)
    }

    /// Whether the field at `slot` parses `raw` to `raw` itself (`modelValue`
    /// would give it back): text its field runs no transform on, NULL, a
    /// number of the field's own kind, a bool of a bool field; never a date
    /// field's value, which is read as stored. Taken as it is, such a value
    /// is neither parsed nor compared with what it parsed to: the usual value
    /// of an import's every row.
    private func takesAsIs(_ raw: FieldValue, slot: Int) -> Bool {
        let kind = pipeline.kinds[slot]
        guard !kind.isDateLike else { return false }
        // The value alone, then the kind: a switch over the pair copied the value into it.
        switch raw {
        case .text: return pipeline.keepsText(slot: slot)
        case .null: return true
        case .int: return kind == .integer
        case .double: return kind == .decimal
        case .bool: return kind == .bool
        case .date, .list, .data: return false
        }
    }

    /// Whether `value` is `raw` itself, so the slot holding `raw` may keep it:
    /// text by its bytes, numbers to the bit; other values are written anew.
    private static func isSame(_ value: FieldValue, _ raw: FieldValue) -> Bool {
        switch (value, raw) {
        case (.text(let x), .text(let y)): x.hasSameUTF8(as: y)
        case (.int(let x), .int(let y)): x == y
        case (.double(let x), .double(let y)): x.bitPattern == y.bitPattern
        case (.bool(let x), .bool(let y)): x == y
        case (.null, .null): true
        default: false
        }
    }

    /// The slot of `name`, at `position` in its row's names. The rows of one
    /// input name their values in the same order (a CSV header, the names a
    /// reader expects, an export): the last row's name there is compared
    /// before the name is hashed.
    private func slot(of name: String, at position: Int) -> Int? {
        if position < recentSlots.count, let recent = recentSlots[position], recent.name == name { return recent.slot }
        let slot = pipeline.slot(name)
        // A position past the last row's (a row holding a name it did not) grows the list to it.
        if position >= recentSlots.count { recentSlots += Array(repeating: nil, count: position + 1 - recentSlots.count) }
        recentSlots[position] = (name, slot)
        return slot
    }

    /// The new record's plan; an import shows no warnings, so none are worked out.
    private func plan(_ row: NewRow) -> RecordInsertPlan {
        if let nullKeyPipeline, row.keys.contains(.some(.null)) {
            return nullKeyPipeline.planInsert(row.values, given: row.given, editing: true)
        }
        return pipeline.planInsert(row.values, given: row.given, editing: true)
    }

    /// Inserts the row, or throws its problems.
    private func insert(_ row: NewRow, plan: RecordInsertPlan, line: Int, into batch: any RecordWriting) throws -> Outcome {
        switch plan {
        case .invalid(let errors):
            let failed = Set(row.problems.compactMap(\.field))
            try report(row.problems + errors.filter { $0.field.map { !failed.contains($0) } ?? true }.map(Problem.init))
            return .unchanged
        case .insert(let values):
            try report(row.problems)
            if let column = row.lossyKeyColumn {
                try report([Problem(field: keyColumns[column], message: "\(keyColumns[column]) holds U+FFFD, which an export "
                                    + "writes for bytes that are not UTF-8: no record is found by it, and none is made")])
            }
            if row.hasKey(holdingNull: keysHoldingNull) { try claim(row.key(columns: keyColumns), line: line) }
            try batch.insert(row.withKeys(values, columns: keyColumns, slots: keySlots, keptAsArrived: keysKeptAsArrived), arrived: row.arrived)
            if row.keys.contains(.some(.null)), row.hasKey(holdingNull: keysHoldingNull) {
                nullKeysInserted.insert(row.key(columns: keyColumns))
            }
            return .inserted
        }
    }

    /// Writes what differs from the stored record. A value is unchanged when
    /// it is exactly what SQLite holds, or the same model value through the
    /// field's coding; only changed fields are validated, so a stored value
    /// that already breaks a rule does not block a row that leaves it alone.
    private func update(_ stored: StoredRecord, storedValues: [String: DatabaseValue], with input: InputRecord,
                                 in batch: any RecordWriting) throws -> Outcome {
        var values = stored.values
        var given: [String] = []
        var like: [String: DatabaseValue] = [:]
        var problems: [Problem] = []
        // A generated column's value is no input, as in a new row: an export's is stale once a value it derives from changes.
        for (name, raw) in input.values where !keyColumns.contains(name) && !computedColumns.contains(name) {
            let arrived = DatabaseValue(raw)
            if let held = storedValues[name], Self.identical(held, arrived) || Self.isNamed(held, arrived) { continue }
            let slot = pipeline.slot(name)
            if isMask(raw, slot: slot) { continue }
            var value: FieldValue
            do {
                value = try parse(raw, name: name, slot: slot, held: stored.values[name] ?? .null,
                                  written: input.values.writtenNumber(name))
            } catch {
                problems.append(error)
                continue
            }
            // A date as an export or a list wrote it (JSON's, or as shown) is the stored one, though the text left
            // out part of what the column holds (a DATE column's time of day, microseconds).
            if case .date = value, let slot {
                let field = pipeline.fields[slot], held = stored.values[name] ?? .null
                value = field.keepingStoredDate(field.keepingStoredDate(value, stored: held, typed: false), stored: held, typed: true)
            }
            guard !Self.identical(value, stored.values[name] ?? .null) else { continue }
            values[name] = value
            given.append(name)
            // A changed date or bool takes the form the row already uses (an epoch stays an
            // epoch, 'Y' becomes 'N'); any other value keeps the storage class it arrived in (an untyped column).
            if slot.map({ pipeline.kinds[$0].takesStoredForm }) != true { like[name] = arrived }
        }
        guard !given.isEmpty || !problems.isEmpty else { return .unchanged }
        switch pipeline.plan(isNew: false, pristine: stored.values, values: values, given: given, editing: true,
                             warnings: false) {
        case .invalid(let errors, _):
            try report(problems + errors.map(Problem.init))
            return .unchanged
        case .update(let changes, _, _):
            try report(problems)
            try claim(stored.key, line: input.line)
            try batch.update(stored.key, changes: changes, like: like)
            return .updated
        case .unchanged, .insert:
            try report(problems)
            return .unchanged
        }
    }

    /// Throws the problems, in field order, when there are any (columns the
    /// form lacks first, by name: a row's values are read in no fixed order).
    private func report(_ problems: [Problem]) throws {
        guard !problems.isEmpty else { return }
        let order = Dictionary(form.fields.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
        let sorted = problems.enumerated().sorted { a, b in
            (a.element.field.flatMap { order[$0] } ?? -1, a.element.field == nil ? a.element.message : "", a.offset)
                < (b.element.field.flatMap { order[$0] } ?? -1, b.element.field == nil ? b.element.message : "", b.offset)
        }
        throw RowProblems(messages: sorted.map(\.element.message))
    }

    /// A row's problem, and the field it blames (`nil`: a column the form lacks).
    private struct Problem: Error {
        var field: String?
        var message: String

        init(field: String?, message: String) {
            self.field = field
            self.message = message
        }

        /// A refusal names its field in its message (`E-mail (email) is read-only`); a rule's does not.
        init(_ error: FieldError) {
            field = error.field
            message = RecordPipeline.refusalCodes.contains(error.code) ? error.message : error.description
        }
    }

    /// The names rows are expected to use, for a reader to lay them out by
    /// (`RecordReader.expect(names:)`): the fields, in slot order, then the key columns no field holds.
    var expectedNames: [String] { Self.expectedNames(of: pipeline, keyColumns: keyColumns) }

    /// `expectedNames` of an importer of `pipeline`'s form keyed by `keyColumns`.
    static func expectedNames(of pipeline: RecordPipeline, keyColumns: [String]) -> [String] {
        // The layout's own array when no key column is left over: records laid out by it are by slot (`parsedAsNew`).
        let others = keyColumns.filter { pipeline.slot($0) == nil }
        return others.isEmpty ? pipeline.layout.keys : pipeline.layout.keys + others
    }

    static func notAField(_ name: String, form: Form) -> String { "\(name): not a field of \(form.name)" }

    /// Names among `columns` that are neither a field nor a key column of the form.
    func unknownColumns(_ columns: [String]) -> [String] {
        columns.filter { pipeline.slot($0) == nil && !keyColumns.contains($0) }
    }

    /// One input value as the model value of its field (at `slot` in the
    /// pipeline's fields) or key column.
    // Typed throws, not a `Result`: the result with its error was copied through memory per value (issue 14).
    ///
    /// - parameter held: what the row holds there (NULL for a new row): a
    ///   date-and-time column holding a bare time takes one (`Field.whatWouldBeCutOff`).
    /// - parameter new: the value is a new row's, stored as it arrived: a
    ///   DATE column's date and time (an export of one) keeps its time, so
    ///   none is cut off.
    /// - parameter written: a JSON number's text as written (`12.50`), which a text field takes.
    private func parse(_ raw: FieldValue, name: String, slot: Int?, held: FieldValue = .null,
                       new: Bool = false, written: String? = nil) throws(Problem) -> FieldValue {
        if let slot {
            do { return try modelValue(raw, slot: slot, held: held, new: new, written: written) } catch {
                throw Problem(field: name, message: error.description)
            }
        }
        if keyColumns.contains(name) {
            return raw.textValue.map { keyValue($0, name) } ?? raw
        }
        if form.group(name) != nil {
            throw Problem(field: name, message: "\(name): a group's rows are an array of row objects")
        }
        // An export's child rows imported without --children.
        let isArray = switch raw {
        case .list: true
        case .text(let text): text.hasPrefix("[")  // an array of objects, kept as its JSON text
        default: false
        }
        if isArray {
            // With --children the form has its groups: rows under another name are of none of them.
            let hint = if !form.groups.isEmpty {
                "not a group of \(form.name) either: its groups are \(form.groups.map(\.key).joined(separator: ", "))"
            } else if childrenAsked {
                "not a group of \(form.name) either: it has none"
            } else {
                "rows of a group? import them with --children"
            }
            throw Problem(field: nil, message: Self.notAField(name, form: form) + " (\(hint))")
        }
        throw Problem(field: nil, message: Self.notAField(name, form: form))
    }

    /// A date in any form SQLite may hold it (text layouts, epochs, Julian
    /// days) is read as stored; other text is parsed as if typed; JSON
    /// numbers and booleans are taken as they are for number and bool
    /// fields, and as their text for others; a BLOB stays a BLOB.
    ///
    /// The field is read in place (`pipeline.fields[slot]`), never copied:
    /// this runs for every value of every row.
    private func modelValue(_ raw: FieldValue, slot: Int, held: FieldValue, new: Bool,
                            written: String?) throws(FieldError) -> FieldValue {
        // The kind is read from `kinds`: `pipeline.fields[slot].kind` copied the whole field, per value.
        let kind = pipeline.kinds[slot]
        if kind.isDateLike, let date = storedDate(raw, pipeline.fields[slot].key) {
            // As typed: a time finer than a date holds, or a bare time for a date and time, is refused;
            // but a new row's DATE keeps its text as it arrived, time of day and all (an export of such a row).
            if !(new && kind == .date), case .text(let text) = raw,
               let error = pipeline.fields[slot].whatWouldBeCutOff(date, given: text, stored: held) {
                throw error
            }
            return .date(date)
        }
        if pipeline.readsHexAsBytes[slot] {
            switch raw {
            case .text, .int, .double: return raw
            default: break
            }
        }
        switch (raw, kind) {
        case (.text(let text), _) where text.isEmpty:
            // Empty text stays empty text, distinct from NULL, whatever the kind.
            return raw
        case (.text, .decimal) where keepsDecimalDigits && raw.isDecimalNumeral && FieldValue.decimal(exactly: raw.textValue!) == nil:
            // More digits than a double holds, as PostgreSQL's `numeric` exports them: kept as its text, every digit.
            return raw
        case (.text(let text), .decimal) where ValueBytes.nonFiniteDouble(named: text) != nil:
            // NaN or ±Infinity, as export writes a float holding one.
            return .double(ValueBytes.nonFiniteDouble(named: text)!)
        case (.text(let text), _):
            return try parseInput(text, slot: slot)
        case (.null, _):
            return raw
        case (.data, let kind):
            // Bytes go where text may (a BLOB or untyped column reads as a text field), never into a number or a date.
            guard ![.integer, .decimal, .bool, .date, .time, .datetime, .choice, .multichoice].contains(kind) else {
                throw FieldError(field: pipeline.fields[slot].key, code: "type",
                                 message: "\(pipeline.fields[slot].label) cannot hold binary data")
            }
            return raw
        case (.list, _):
            return try pipeline.parse(raw, slot: slot).get()
        case (.int(let integer), .decimal):
            // Past 2^53 the integer itself, as the field keeps it when typed (a double would round it).
            return .decimal(integer)
        case (.int, .integer), (.double, .decimal), (.bool, .bool):
            return raw
        case (.int(let integer), .bool) where integer == 0 || integer == 1:
            return .bool(integer == 1)
        case (.int, .bool):
            // Another integer a bool column holds (Access's -1, a 2): true to SQLite, and kept as it is.
            return raw
        default:
            // A JSON number a text field takes as written (`12.50`), as it takes it typed.
            return try parseInput(written ?? ValueText.text(raw, kind: kind, blobsBySize: false), slot: slot)
        }
    }

    /// `Field.parseInput(_:in:)` of the field at `slot`, through the pipeline's transforms made once.
    private func parseInput(_ text: String, slot: Int) throws(FieldError) -> FieldValue {
        let typed = pipeline.parse(.text(text), slot: slot)
        guard case .failure = typed, let date = pipeline.fields[slot].isoDate(text) else { return try typed.get() }
        return .date(date)
    }

    /// Equal to the byte: text compares by its UTF-8 (Swift's `==` would call
    /// a composed `é` equal to `e` and a combining accent).
    /// Whether `arrived` is the name export writes for `held`, a REAL
    /// ±Infinity (`"Infinity"`): read back into its own row, no change, though
    /// a column of no type would take the name as text.
    static func isNamed(_ held: DatabaseValue, _ arrived: DatabaseValue) -> Bool {
        guard case .real(let number) = held, !number.isFinite, case .text(let name) = arrived else { return false }
        return ValueBytes.nonFiniteDouble(named: name) == number
    }

    static func identical(_ a: DatabaseValue, _ b: DatabaseValue) -> Bool {
        if case .text(let x) = a, case .text(let y) = b { return x.hasSameUTF8(as: y) }
        return a == b
    }

    static func identical(_ a: FieldValue, _ b: FieldValue) -> Bool {
        if case .text(let x) = a, case .text(let y) = b { return x.hasSameUTF8(as: y) }
        return a == b
    }
}
