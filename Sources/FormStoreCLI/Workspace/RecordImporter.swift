import FormCore
import FormStorage

/// Turns one input row into a record and writes it to a batch: each value
/// parsed through its field when it is text (as if typed), the whole record
/// validated as a save would, then inserted, or, when its key names a stored
/// record, written over it (only what changed).
struct RecordImporter {
    enum Outcome { case inserted, updated, unchanged }

    /// The row's problems, one `field: message` each; nothing of it was written.
    struct RowProblems: Error {
        var messages: [String]
    }

    let form: Form
    let mapping: TableMapping
    /// A key value typed as text, converted as the workspace converts keys.
    let keyValue: (_ text: String, _ column: String) -> FieldValue
    private let fields: [String: Field]
    private let storedFields: [String]
    private let defaults: [String: FieldValue]

    init(form: Form, mapping: TableMapping, keyValue: @escaping (_ text: String, _ column: String) -> FieldValue) {
        self.form = form
        self.mapping = mapping
        self.keyValue = keyValue
        let valueFields = form.fields.filter(\.holdsValue)
        fields = Dictionary(valueFields.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        storedFields = valueFields.filter(\.isStored).map(\.key)
        defaults = Dictionary(valueFields.map { ($0.key, $0.defaultValue) }, uniquingKeysWith: { first, _ in first })
    }

    /// Writes one row.
    ///
    /// - throws: `RowProblems` for a row that does not parse or validate;
    ///   `DatabaseError` when SQLite refuses it (a constraint) or fails.
    func write(_ input: InputRecord, into batch: RecordBatch) throws -> Outcome {
        let (values, unparsed) = parse(input)
        let keyValues = mapping.keyColumns.map { values[$0] ?? .null }
        if unparsed.isEmpty && !keyValues.contains(.null),
           let stored = try batch.load(RecordKey(columns: mapping.keyColumns, values: keyValues)) {
            return try update(stored, with: values, in: batch)
        }
        var record = defaults
        record.merge(values) { $1 }
        try validate(record, besides: unparsed)
        var row: [String: FieldValue] = [:]
        for key in storedFields { row[key] = record[key] ?? .null }
        for column in mapping.keyColumns where values[column] != nil { row[column] = values[column] }
        try batch.insert(row)
        return .inserted
    }

    private func update(_ stored: StoredRecord, with values: [String: FieldValue], in batch: RecordBatch) throws -> Outcome {
        var record = stored.values
        record.merge(values) { $1 }
        try validate(record, besides: [])
        var changes: [String: FieldValue] = [:]
        var problems: [String] = []
        for key in storedFields where values[key] != nil && values[key] != stored.values[key] {
            if fields[key]?.isReadOnly == true && !mapping.keyColumns.contains(key) {
                problems.append("\(key): is read-only")
            }
            changes[key] = values[key]
        }
        guard problems.isEmpty else { throw RowProblems(messages: problems) }
        guard !changes.isEmpty else { return .unchanged }
        try batch.update(stored.key, changes: changes)
        return .updated
    }

    /// Validates the record as a save would; with the problems of values that
    /// did not parse (whose fields are not checked again), in field order.
    private func validate(_ record: [String: FieldValue], besides unparsed: [Problem]) throws {
        let failed = Set(unparsed.compactMap(\.field))
        let errors = form.validateAll(values: record).filter { $0.field.map { !failed.contains($0) } ?? true }
        let problems = unparsed + errors.map { Problem(field: $0.field, message: $0.description) }
        guard !problems.isEmpty else { return }
        let order = Dictionary(form.fields.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
        let sorted = problems.enumerated().sorted { a, b in
            (a.element.field.flatMap { order[$0] } ?? -1, a.offset) < (b.element.field.flatMap { order[$0] } ?? -1, b.offset)
        }
        throw RowProblems(messages: sorted.map(\.element.message))
    }

    /// A row's problem, and the field it blames (`nil`: a column the form lacks).
    private struct Problem {
        var field: String?
        var message: String
    }

    /// The row's values as model values, by field key, and the problems of
    /// those that did not parse.
    static func notAField(_ name: String, form: Form) -> String { "\(name): not a field of \(form.name)" }

    /// Names among `columns` that are neither a field nor a key column of the form.
    func unknownColumns(_ columns: [String]) -> [String] {
        columns.filter { fields[$0] == nil && !mapping.keyColumns.contains($0) }
    }

    private func parse(_ input: InputRecord) -> ([String: FieldValue], [Problem]) {
        var values: [String: FieldValue] = [:]
        var problems: [Problem] = []
        for (name, raw) in input.values.sorted(by: { $0.key < $1.key }) {
            if let field = fields[name] {
                switch modelValue(raw, field: field) {
                case .success(let value): values[name] = value
                case .failure(let error): problems.append(Problem(field: name, message: error.description))
                }
            } else if mapping.keyColumns.contains(name) {
                values[name] = raw.textValue.map { keyValue($0, name) } ?? raw
            } else {
                problems.append(Problem(field: nil, message: Self.notAField(name, form: form)))
            }
        }
        return (values, problems)
    }

    /// Text is parsed as if typed (dates also in ISO-8601); JSON numbers and booleans are taken as
    /// they are for number and bool fields, and as their text for others.
    private func modelValue(_ raw: FieldValue, field: Field) -> Result<FieldValue, FieldError> {
        switch (raw, field.kind) {
        case (.text(let text), _):
            return field.parseInput(text, in: form)
        case (.null, _):
            return .success(raw)
        case (.list, _):
            return field.parse(value: raw, in: form)
        case (.int(let integer), .decimal):
            return .success(.double(Double(integer)))
        case (.int, .integer), (.double, .decimal), (.bool, .bool):
            return .success(raw)
        case (.int(let integer), .bool) where integer == 0 || integer == 1:
            return .success(.bool(integer == 1))
        default:
            return field.parseInput(ValueText.text(raw, kind: field.kind, blobsBySize: false), in: form)
        }
    }
}
