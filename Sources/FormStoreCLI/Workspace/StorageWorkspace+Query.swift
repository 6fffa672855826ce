import Foundation
import FormCore
import FormStorage

/// Finding records: `list` and `export` options turned into a `RecordQuery`,
/// every value parsed through its field and bound, never spliced.
extension StorageWorkspace {
    func forEachRecord(of form: Form, selection: RecordSelection, _ body: (StoredRecord) throws -> Void) throws {
        let store = try store()
        try store.forEachRecord(form, query: try query(selection, of: form, mapping: try store.mapping(for: form)), body)
    }

    func forEachStoredRow(of form: Form, columns: [String], selection: RecordSelection,
                          _ body: ([FieldValue]) throws -> Void) throws {
        let store = try store()
        let query = try query(selection, of: form, mapping: try store.mapping(for: form))
        var row = [FieldValue](repeating: .null, count: columns.count)
        try store.forEachStoredRow(form, columns: columns, query: query) { stored in
            for index in stored.indices { row[index] = FieldValue(stored[index]) }
            try body(row)
        }
    }

    private func query(_ selection: RecordSelection, of form: Form, mapping: TableMapping) throws -> RecordQuery {
        let filters = try selection.conditions.map { try recordFilter($0, of: form, mapping: mapping) }
        let order = try selection.sort.map { key in
            RecordOrder(field: try queriedField(key.field, option: "--sort", of: form, mapping: mapping), descending: key.descending)
        }
        return RecordQuery(filters: filters, search: selection.search, order: order,
                           offset: selection.offset, limit: selection.limit)
    }

    /// The name, when it is a stored field or a key column of the form.
    /// - throws: `CLIError.usage` (with a guess) for any other name.
    private func queriedField(_ name: String, option: String, of form: Form, mapping: TableMapping) throws -> String {
        if let field = form.field(name) {
            guard field.holdsValue, field.isStored else {
                throw CLIError.validation("\(option): field '\(name)' of \(form.name) is not stored")
            }
            return name
        }
        guard mapping.keyColumns.contains(name) else {
            let candidates = mapping.keyColumns + form.fields.filter { $0.holdsValue && $0.isStored }.map(\.key)
            var message = "\(option): form \(form.name) has no field '\(name)'"
            if let guess = Suggestion.closest(to: name, among: candidates) { message += ". Did you mean '\(guess)'?" }
            throw CLIError.usage(message)
        }
        return name
    }

    /// One `--where` condition: its VALUE parsed through the field, as if
    /// typed into it (a date also as stored: any text layout, an epoch).
    private func recordFilter(_ condition: RecordCondition, of form: Form, mapping: TableMapping) throws -> RecordFilter {
        let name = try queriedField(condition.field, option: "--where", of: form, mapping: mapping)
        switch condition.test {
        case .isNull: return RecordFilter(field: name, test: .isNull)
        case .isNotNull: return RecordFilter(field: name, test: .isNotNull)
        case .compare(.contains, let text): return RecordFilter(field: name, test: .contains(text))
        case .compare(let op, let text):
            let comparison = RecordFilter.Comparison(rawValue: op.rawValue)!
            guard let field = form.field(name) else {
                return RecordFilter(field: name, test: .compare(comparison, keyValue(text, column: name, of: form, mapping: mapping)))
            }
            if text.isEmpty {
                // Typing nothing means no value, stored as NULL or as empty text.
                guard comparison == .equal else {
                    throw CLIError.usage("--where \(name)\(op.rawValue): a value is needed (or use '\(name) is not null')")
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
                throw CLIError.validation("--where \(error.description)")
            }
        }
    }
}
