/// A repeating group in a spec: a section with a `group` object beside its
/// `fields` (docs/spec.md, "Repeating groups").
///
/// ```json
/// {"title": "Lines", "fields": [{"key": "item", "kind": "text"}],
///  "group": {"key": "lines", "table": "invoice_line", "foreignKey": ["invoice_id"],
///            "orderColumn": "position", "minRows": 1, "unique": ["item"],
///            "sums": [{"column": "amount", "field": "total"}]}}
/// ```
extension FormSpec {
    static let groupKeys = ["key", "table", "foreignKey", "keyFields", "orderColumn", "minRows", "maxRows",
                            "unique", "sums"]
    static let sumKeys = ["column", "field"]

    static func readGroup(_ spec: SpecNode, fields: [Field]) throws(SpecError) -> RowGroup {
        let object = try spec.object(allowed: groupKeys)
        var group = RowGroup(key: try object.required("key").string(), fields: fields)
        group.table = try object["table"]?.string()
        if let node = object["foreignKey"] { group.foreignKey = try node.strings() }
        if let node = object["keyFields"] { group.keyFields = try node.strings() }
        group.orderColumn = try object["orderColumn"]?.string()
        group.minRows = try object["minRows"]?.int()
        group.maxRows = try object["maxRows"]?.int()
        if let node = object["unique"] { group.uniqueFields = try node.strings() }
        if let node = object["sums"] {
            for item in try node.array() {
                let sum = try item.object(allowed: sumKeys)
                group.sums.append(GroupSum(column: try sum.required("column").string(), field: try sum.required("field").string()))
            }
        }
        return group
    }

    static func node(for group: RowGroup) -> JSONNode {
        var members: [JSONNode.Member] = []
        func put(_ key: String, _ value: JSONNode) { members.append(JSONNode.Member(key: key, value: value)) }
        func strings(_ list: [String]) -> JSONNode { .array(list.map(JSONNode.string)) }
        put("key", .string(group.key))
        if let table = group.table { put("table", .string(table)) }
        if !group.foreignKey.isEmpty { put("foreignKey", strings(group.foreignKey)) }
        if group.keyFields != ["id"] { put("keyFields", strings(group.keyFields)) }
        if let column = group.orderColumn { put("orderColumn", .string(column)) }
        if let count = group.minRows { put("minRows", .integer(Int64(count))) }
        if let count = group.maxRows { put("maxRows", .integer(Int64(count))) }
        if !group.uniqueFields.isEmpty { put("unique", strings(group.uniqueFields)) }
        if !group.sums.isEmpty {
            put("sums", .array(group.sums.map { .object([JSONNode.Member(key: "column", value: .string($0.column)),
                                                         JSONNode.Member(key: "field", value: .string($0.field))]) }))
        }
        return .object(members)
    }
}
