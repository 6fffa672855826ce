import FoundationEssentials

extension Section {
    /// A repeating group bound to a key by name: a child table, or an array of
    /// dictionaries.
    ///
    /// ```swift
    /// Section(group: "lines", title: "Lines") {
    ///     Field("Item", key: "item").required()
    ///     Field("Amount", key: "amount", kind: .decimal)
    /// }
    /// .childTable("invoice_line", foreignKey: "invoice_id")
    /// .sum("amount", into: "total")
    /// ```
    public init(group key: String, title: String? = nil, @FieldBuilder fields: () -> [Field]) {
        self.init(title, group: RowGroup(key: key, fields: fields()))
    }

    /// A repeating group bound to an array of structs of a Codable model by key
    /// path; the row fields use key paths on the row type.
    ///
    /// ```swift
    /// Section(group: \Invoice.lines, title: "Lines") {
    ///     Field("Item", \Invoice.Line.item)
    /// }
    /// ```
    public init<Model: Codable, Row: Codable>(group keyPath: WritableKeyPath<Model, [Row]>, title: String? = nil,
                                              @FieldBuilder fields: () -> [Field]) {
        switch KeyPathResolver.arrayKey(for: keyPath) {
        case .success(let key):
            self.init(title, group: RowGroup(key: key, fields: fields()))
        case .failure(let problem):
            let written = String(describing: keyPath)
            var group = RowGroup(key: written, fields: fields())
            group.unresolvedKeyPath = "\(written) of group \((title ?? written).quoted): \(problem.message)"
            self.init(title, group: group)
        }
        // Rows of a model's array have no key of their own: their position is who they are.
        self.group?.keyFields = []
    }

    /// The same section with its group changed (a plain section is returned as it is).
    func withGroup(_ change: (inout RowGroup) -> Void) -> Section {
        var copy = self
        if var group = copy.group {
            change(&group)
            copy.group = group
        }
        return copy
    }

    /// At least `count` rows.
    public func minRows(_ count: Int) -> Section { withGroup { $0.minRows = count } }
    /// At most `count` rows.
    public func maxRows(_ count: Int) -> Section { withGroup { $0.maxRows = count } }
    /// Each of these row fields holds a value no other row holds.
    public func unique(_ fields: String...) -> Section { withGroup { $0.uniqueFields += fields } }
    /// The parent field `total` must equal the sum of the row field `column`.
    public func sum(_ column: String, into total: String) -> Section {
        withGroup { $0.sums.append(GroupSum(column: column, field: total)) }
    }
    /// The rows live in `table`, referring to the parent through `foreignKey`
    /// (its columns, in the order of the parent's key), identified by `keyFields`.
    public func childTable(_ table: String, foreignKey: String..., keyFields: [String] = ["id"]) -> Section {
        withGroup {
            $0.table = table
            $0.foreignKey = foreignKey
            $0.keyFields = keyFields
        }
    }
    /// Each row's position is kept in `column` (1, 2, 3 … as far as rows move).
    public func orderColumn(_ column: String) -> Section { withGroup { $0.orderColumn = column } }
    /// The columns that identify a stored row.
    public func keyFields(_ columns: String...) -> Section { withGroup { $0.keyFields = columns } }
}

extension KeyPathResolver {
    /// The coding key of an array property: the one key whose encoded value is
    /// the array's, in every probe. (`key(for:)` cannot tell: an array of
    /// structures has no `FieldValue`.)
    static func arrayKey<Model: Codable, Row: Codable>(for keyPath: KeyPath<Model, [Row]>) -> Result<String, Problem> {
        var candidates: Set<String>?
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            for probe in 0..<probeCount {
                let instance = try probeInstance(Model.self, probe: probe)
                guard case .object(let members) = try JSONReader.parse(encoder.encode(instance)) else {
                    return .failure(Problem(message: "\(Model.self) does not encode as an object"))
                }
                // Compared as parsed and re-written (keys sorted), not as bytes.
                let wanted = try JSONReader.parse(encoder.encode(instance[keyPath: keyPath])).serialized()
                let matching = members.filter { $0.value.serialized() == wanted }.map(\.key)
                candidates = candidates.map { $0.intersection(matching) } ?? Set(matching)
            }
        } catch {
            return .failure(Problem(message: "cannot probe \(Model.self) for its keys: \(error)"))
        }
        let keys = (candidates ?? []).sorted()
        switch keys.count {
        case 1: return .success(keys[0])
        case 0: return .failure(Problem(message: "no coding key of \(Model.self) holds this array"))
        default: return .failure(Problem(message: "several coding keys match: \(keys.joined(separator: ", "))"))
        }
    }
}
