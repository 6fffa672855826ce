import FoundationEssentials
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
struct RecordImporter {
    enum Outcome { case inserted, updated, unchanged }

    /// The row's problems, one `field: message` each; nothing of it was written.
    struct RowProblems: Error {
        var messages: [String]
    }

    let form: Form
    /// The table's key columns, in key order.
    let keyColumns: [String]
    /// A key value typed as text, converted as the workspace converts keys.
    let keyValue: (_ text: String, _ column: String) -> FieldValue
    /// A value as a date field's column may store it, read as a date (`RecordWriting.storedDate`).
    let storedDate: (_ value: FieldValue, _ field: String) -> Date?
    /// The form's rules, prepared once for every row.
    let pipeline: RecordPipeline
    /// Columns the database computes: a new row's value for one is not written (nor refused).
    private let computedColumns: Set<String>

    init(form: Form, keyColumns: [String], computedColumns: Set<String> = [],
         storedDate: @escaping (_ value: FieldValue, _ field: String) -> Date?,
         keyValue: @escaping (_ text: String, _ column: String) -> FieldValue) {
        self.form = form
        self.keyColumns = keyColumns
        self.storedDate = storedDate
        self.keyValue = keyValue
        self.computedColumns = computedColumns
        pipeline = CompiledForm.of(form).pipeline
    }

    /// Writes one row.
    ///
    /// - throws: `RowProblems` for a row that does not parse or validate;
    ///   `DatabaseError` or `PostgresError` when the database refuses it (a constraint) or fails.
    func write(_ input: InputRecord, into batch: any RecordWriting) throws -> Outcome {
        var keyValues: [FieldValue] = []
        for column in keyColumns {
            guard let raw = input.values[column], case .success(let value) = parse(raw, name: column, slot: pipeline.slot(column)),
                  value != .null
            else { break }
            keyValues.append(value)
        }
        if !keyValues.isEmpty, keyValues.count == keyColumns.count,
           let (stored, storedValues) = try batch.loadStored(RecordKey(columns: keyColumns, values: keyValues)) {
            return try update(stored, storedValues: storedValues, with: input, in: batch)
        }
        var values = pipeline.defaults
        var given: [String] = []
        var keys: [String: FieldValue] = [:]
        var problems: [Problem] = []
        for (name, raw) in input.values {
            // The field's slot, looked up once per value: the rest reads the field in place.
            let slot = pipeline.slot(name)
            switch parse(raw, name: name, slot: slot) {
            case .failure(let problem):
                problems.append(problem)
            case .success(let value):
                if keyColumns.contains(name) { keys[name] = value }
                guard let slot, computedColumns.isEmpty || !computedColumns.contains(name) else { continue }
                // A value the new record holds anyway (its default) is no change: an export imports back.
                if !Self.identical(value, pipeline.fields[slot].defaultValue) { given.append(name) }
                values[name] = value
            }
        }
        let failed = Set(problems.compactMap(\.field))
        // An import shows no warnings: they are not worked out.
        let plan = pipeline.plan(isNew: true, pristine: pipeline.defaults, values: values, given: given, editing: true,
                                 warnings: false)
        guard case .insert(var row, _) = plan else {
            if case .invalid(let errors, _) = plan {
                problems += errors.filter { $0.field.map { !failed.contains($0) } ?? true }.map(Problem.init)
            }
            try report(problems)
            return .unchanged
        }
        try report(problems)
        for (column, value) in keys { row[column] = value }
        try batch.insert(row, like: input.values.mapValues(DatabaseValue.init))
        return .inserted
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
        for (name, raw) in input.values where !keyColumns.contains(name) {
            let arrived = DatabaseValue(raw)
            if let held = storedValues[name], Self.identical(held, arrived) { continue }
            let slot = pipeline.slot(name)
            switch parse(raw, name: name, slot: slot) {
            case .failure(let problem):
                problems.append(problem)
            case .success(let value) where Self.identical(value, stored.values[name] ?? .null):
                continue
            case .success(let value):
                values[name] = value
                given.append(name)
                // A changed date takes the form the row already uses (an epoch stays an epoch);
                // any other value keeps the storage class it arrived in (an untyped column).
                if slot.map({ pipeline.fields[$0].isDateLike }) != true { like[name] = arrived }
            }
        }
        guard !given.isEmpty || !problems.isEmpty else { return .unchanged }
        switch pipeline.plan(isNew: false, pristine: stored.values, values: values, given: given, editing: true,
                             warnings: false) {
        case .invalid(let errors, _):
            try report(problems + errors.map(Problem.init))
            return .unchanged
        case .update(let changes, _, _):
            try report(problems)
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

    static func notAField(_ name: String, form: Form) -> String { "\(name): not a field of \(form.name)" }

    /// Names among `columns` that are neither a field nor a key column of the form.
    func unknownColumns(_ columns: [String]) -> [String] {
        columns.filter { pipeline.slot($0) == nil && !keyColumns.contains($0) }
    }

    /// One input value as the model value of its field (at `slot` in the
    /// pipeline's fields) or key column.
    private func parse(_ raw: FieldValue, name: String, slot: Int?) -> Result<FieldValue, Problem> {
        if let slot {
            return modelValue(raw, slot: slot).mapError { Problem(field: name, message: $0.description) }
        }
        if keyColumns.contains(name) {
            return .success(raw.textValue.map { keyValue($0, name) } ?? raw)
        }
        return .failure(Problem(field: nil, message: Self.notAField(name, form: form)))
    }

    /// A date in any form SQLite may hold it (text layouts, epochs, Julian
    /// days) is read as stored; other text is parsed as if typed; JSON
    /// numbers and booleans are taken as they are for number and bool
    /// fields, and as their text for others; a BLOB stays a BLOB.
    ///
    /// The field is read in place (`pipeline.fields[slot]`), never copied:
    /// this runs for every value of every row.
    private func modelValue(_ raw: FieldValue, slot: Int) -> Result<FieldValue, FieldError> {
        let fields = pipeline.fields
        if fields[slot].isDateLike, let date = storedDate(raw, fields[slot].key) {
            return .success(.date(date))
        }
        switch (raw, fields[slot].kind) {
        case (.text(let text), _) where text.isEmpty:
            // Empty text stays empty text, distinct from NULL, whatever the kind.
            return .success(raw)
        case (.text(let text), _):
            return parseInput(text, slot: slot)
        case (.null, _):
            return .success(raw)
        case (.data, let kind):
            // Bytes go where text may (a BLOB or untyped column reads as a text field), never into a number or a date.
            guard ![.integer, .decimal, .bool, .date, .time, .datetime, .choice, .multichoice].contains(kind) else {
                return .failure(FieldError(field: fields[slot].key, code: "type",
                                           message: "\(fields[slot].label) cannot hold binary data"))
            }
            return .success(raw)
        case (.list, _):
            return pipeline.parse(raw, slot: slot)
        case (.int(let integer), .decimal):
            return .success(.double(Double(integer)))
        case (.int, .integer), (.double, .decimal), (.bool, .bool):
            return .success(raw)
        case (.int(let integer), .bool) where integer == 0 || integer == 1:
            return .success(.bool(integer == 1))
        default:
            return parseInput(ValueText.text(raw, kind: fields[slot].kind, blobsBySize: false), slot: slot)
        }
    }

    /// `Field.parseInput(_:in:)` of the field at `slot`, through the pipeline's transforms made once.
    private func parseInput(_ text: String, slot: Int) -> Result<FieldValue, FieldError> {
        let typed = pipeline.parse(.text(text), slot: slot)
        guard case .failure = typed, let date = pipeline.fields[slot].isoDate(text) else { return typed }
        return .success(.date(date))
    }

    /// Equal to the byte: text compares by its UTF-8 (Swift's `==` would call
    /// a composed `é` equal to `e` and a combining accent).
    static func identical(_ a: DatabaseValue, _ b: DatabaseValue) -> Bool {
        if case .text(let x) = a, case .text(let y) = b { return x.utf8.elementsEqual(y.utf8) }
        return a == b
    }

    static func identical(_ a: FieldValue, _ b: FieldValue) -> Bool {
        if case .text(let x) = a, case .text(let y) = b { return x.utf8.elementsEqual(y.utf8) }
        return a == b
    }
}
