import FoundationEssentials
import FormCore
import FormStorage

/// Finding records: `list` and `export` options turned into a `RecordQuery`,
/// every value parsed through its field and bound, never spliced.
extension StorageWorkspace {
    func forEachRecord(of form: Form, selection: RecordSelection, _ body: (StoredRecord) throws -> Void) throws {
        let store = try store()
        try store.forEachRecord(form, query: try query(selection, of: form, keyColumns: try store.keyColumns(of: form)), body)
    }

    func forEachStoredRow(of form: Form, columns: [String], selection: RecordSelection,
                          _ body: ([FieldValue]) throws -> Void) throws {
        let store = try store()
        var query = try query(selection, of: form, keyColumns: try store.keyColumns(of: form))
        query.inStoredOrder = true
        try store.forEachExportedRow(form, columns: columns, query: query, body)
    }

    func query(_ selection: RecordSelection, of form: Form, keyColumns: [RecordKeyColumn]) throws -> RecordQuery {
        let filters = try selection.conditions.map {
            try recordFilter($0, option: selection.names.conditions, of: form, keyColumns: keyColumns)
        }
        let order = try selection.sort.map { key in
            RecordOrder(field: try queriedField(key.field, option: selection.names.sort, of: form, keyColumns: keyColumns),
                        descending: key.descending)
        }
        return RecordQuery(filters: filters, search: selection.search, order: order,
                           offset: selection.offset, limit: selection.limit)
    }

    /// The name, when it is a stored field or a key column of the form.
    /// - throws: `CLIError.usage` (with a guess) for any other name.
    private func queriedField(_ name: String, option: String, of form: Form, keyColumns: [RecordKeyColumn]) throws -> String {
        if let field = form.field(name) {
            guard field.holdsValue, field.isStored else {
                throw CLIError.validation("\(option): field '\(name)' of \(form.name) is not stored")
            }
            // Matching or ordering by a secret tells it, a character at a time (`password~a`, then `ab`…).
            guard !field.isSecure else {
                throw CLIError.usage("\(option): \(name) of \(form.name) is secure: records are not found or sorted by it")
            }
            return name
        }
        guard keyColumns.map(\.name).contains(name) else {
            let candidates = keyColumns.map(\.name) + form.fields.filter { $0.holdsValue && $0.isStored }.map(\.key)
            var message = "\(option): form \(form.name) has no field '\(name)'"
            if let guess = Suggestion.closest(to: name, among: candidates) { message += ". Did you mean '\(guess)'?" }
            throw CLIError.usage(message)
        }
        return name
    }

    /// One `--where` condition: its VALUE parsed through the field, as if
    /// typed into it (a date also as stored: any text layout, an epoch).
    private func recordFilter(_ condition: RecordCondition, option: String, of form: Form,
                              keyColumns: [RecordKeyColumn]) throws -> RecordFilter {
        let name = try queriedField(condition.field, option: option, of: form, keyColumns: keyColumns)
        switch condition.test {
        case .isNull: return RecordFilter(field: name, test: .isNull)
        case .isNotNull: return RecordFilter(field: name, test: .isNotNull)
        case .compare(.contains, let text): return RecordFilter(field: name, test: .contains(text))
        case .compare(let op, let text):
            let comparison = RecordFilter.Comparison(rawValue: op.rawValue)!
            guard let field = form.field(name) else {
                return RecordFilter(field: name, test: .compare(comparison, keyValue(text, column: name, of: form, keyColumns: keyColumns)))
            }
            if text.isEmpty {
                // Typing nothing means no value, stored as NULL or as empty text.
                guard comparison == .equal else {
                    throw CLIError.usage("\(option) \(name)\(op.rawValue): a value is needed (or use '\(name) is not null')")
                }
                return .isEmpty(name)
            }
            switch field.parseInput(text, in: form) {
            case .success(let value) where value.isEmpty && value.listValue == nil && comparison == .equal:
                return .isEmpty(name)
            case .success(let value):
                return RecordFilter(field: name, test: .compare(comparison, value))
            case .failure(let error):
                if field.isDateLike, let number = Double(text), let date = DateStorageFormat.parse(
                    Int64(exactly: number).map(DatabaseValue.integer) ?? .real(number)) {
                    return RecordFilter(field: name, test: .compare(comparison, .date(date)))
                }
                throw CLIError.validation("\(option) \(error.description)")
            }
        }
    }
}
