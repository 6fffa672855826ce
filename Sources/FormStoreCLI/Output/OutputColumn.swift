import FormCore

/// One column of output: a field's key and label, its kind (dates and numbers
/// are shown by kind) and whether its values are masked.
struct OutputColumn: Sendable, Hashable {
    var key: String
    var label: String
    var kind: FieldKind?
    var isSecure: Bool
    /// The field, when the column is one: tables and text show its values as
    /// a person sees them (through its transformers: `(555) 123-4567`, `12/31/1999`).
    var field: Field?
    /// For a foreign key in `show` and `list`: the referenced rows' labels,
    /// shown beside the value (`ReferenceLabels`).
    var references: ReferenceLabels?
    /// A column of the form's primary key: shown as it is typed, so that the
    /// record can be named again (a BLOB key in hex, not by its size).
    var isKey = false

    init(key: String, label: String? = nil, kind: FieldKind? = nil, isSecure: Bool = false) {
        self.key = key
        self.label = label ?? key
        self.kind = kind
        self.isSecure = isSecure
    }

    init(_ field: Field) {
        self.init(key: field.key, label: field.label, kind: field.kind, isSecure: field.isSecure)
        self.field = field
    }

    /// The value as a person reads it in a table or a text record: formatted by
    /// the field; BLOBs by size; anything else as `ValueText.text`.
    func displayText(_ value: FieldValue) -> String {
        if value == .text("") { return ValueText.emptyText }
        let text = plainDisplayText(value)
        guard let suffix = references?.suffix(key, value) else { return text }
        return text + " " + suffix
    }

    private func plainDisplayText(_ value: FieldValue) -> String {
        if isKey, case .data = value { return RecordKey.text(of: value) }
        if let field, !value.isEmpty, value != .text(ValueText.mask) {
            // A REAL a column of no type holds is shown as the REAL it is (`1.0`), apart from the
            // INTEGER 1 beside it, as JSON and CSV write them (a decimal field shows `1`).
            if field.kind.holdsText, case .double(let real) = value, real.isFinite { return real.description }
            if case .data = value {} else { return field.format(value) }
        }
        return ValueText.text(value, kind: kind, blobsBySize: true)
    }

    /// The stored fields of a form, in order: what list, show and export print.
    /// Key columns that are no field of the form (a spec's `id`) come first,
    /// so that every record printed can be found again and an export imports
    /// back onto the same records.
    static func columns(of form: Form) -> [OutputColumn] {
        let keys = form.primaryKey.filter { form.field($0) == nil }.map { OutputColumn(key: $0) }
        var columns = keys + form.fields.filter { $0.holdsValue && $0.isStored }.map(OutputColumn.init)
        for index in columns.indices where form.primaryKey.contains(columns[index].key) { columns[index].isKey = true }
        return columns
    }

    /// Right-aligned in a table; a key with its label beside it reads as text.
    var isNumeric: Bool { (kind == .integer || kind == .decimal) && references == nil }
}

/// What every writer is told besides its columns.
struct OutputOptions: Sendable, Hashable {
    /// Print secure fields' values instead of `••••`.
    var revealSecure = false
    /// The widest a table column gets; longer values end in `…`.
    var maxColumnWidth = 40
    /// Style the table header and text labels (an interactive stdout without `NO_COLOR`).
    var usesColor = false
    /// The terminal's width (`$COLUMNS`, else the width of an interactive
    /// stdout): a table's lines are cut to fit it. `nil` (a pipe or a file): no limit.
    var lineWidth: Int? = nil
    /// Rows a table reads before fixing its column widths; later rows are cut to fit.
    var tableSampleSize = 100
    /// CSV: put a `'` before a text cell a spreadsheet would run as a formula (off with `--raw-csv`).
    var protectsFormulas = true
}
