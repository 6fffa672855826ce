import FormBasics
import FoundationEssentials
extension FormSpec {
    static func node(for form: Form) -> JSONNode {
        var members: [JSONNode.Member] = []
        func put(_ key: String, _ value: JSONNode) { members.append(JSONNode.Member(key: key, value: value)) }
        put("formstore", .integer(Int64(formatVersion)))
        put("name", .string(form.name))
        put("title", .string(form.title))
        if form.version != 1 { put("version", .integer(Int64(form.version))) }
        if form.mode != .save { put("mode", .string(form.mode.rawValue)) }
        if let table = form.table { put("table", .string(table)) }
        if form.editsOtherTable { put("editsOtherTable", .bool(true)) }
        if !form.primaryKey.isEmpty { put("primaryKey", .array(form.primaryKey.map(JSONNode.string))) }
        if let column = form.versionColumn { put("versionColumn", .string(column)) }
        if form.validationTiming != .onCommit { put("validation", .string(form.validationTiming.rawValue)) }
        if form.unsavedChangesWarning != Form.defaultUnsavedChangesWarning {
            put("unsavedChangesWarning", form.unsavedChangesWarning.map(JSONNode.string) ?? .bool(false))
        }
        if !form.messages.form.isEmpty { put("messages", messages(form.messages.form)) }
        if !form.messages.kinds.isEmpty {
            put("kindMessages", .object(form.messages.kinds.map { JSONNode.Member(key: $0.key.rawValue, value: messages($0.value)) }))
        }
        let rules = form.rules.compactMap(node(for:))
        if !rules.isEmpty { put("rules", .array(rules)) }
        put("sections", .array(form.sections.map(node(for:))))
        return .object(members)
    }

    static func messages(_ messages: [String: String]) -> JSONNode {
        .object(messages.map { JSONNode.Member(key: $0.key, value: .string($0.value)) })
    }

    static func node(for rule: FormRule) -> JSONNode? {
        guard case .fieldsEqual(let field, let other, let code, let message) = rule else { return nil }
        var members = [JSONNode.Member(key: "type", value: .string("equal")),
                       JSONNode.Member(key: "field", value: .string(field)),
                       JSONNode.Member(key: "other", value: .string(other))]
        if code != "mismatch" { members.append(JSONNode.Member(key: "code", value: .string(code))) }
        if let message { members.append(JSONNode.Member(key: "message", value: .string(message))) }
        return .object(members)
    }

    static func node(for section: Section) -> JSONNode {
        var members = [JSONNode.Member(key: "fields", value: .array((section.group?.fields ?? section.fields).map(node(for:))))]
        if let title = section.title { members.append(JSONNode.Member(key: "title", value: .string(title))) }
        if let group = section.group { members.append(JSONNode.Member(key: "group", value: node(for: group))) }
        return .object(members)
    }

    static func node(for field: Field) -> JSONNode {
        var members: [JSONNode.Member] = []
        func put(_ key: String, _ value: JSONNode) { members.append(JSONNode.Member(key: key, value: value)) }
        let plain = Field(key: field.key, label: field.label, kind: field.kind)
        put("key", .string(field.key))
        put("label", .string(field.label))
        put("kind", .string(field.kind.rawValue))
        if let text = field.placeholder { put("placeholder", .string(text)) }
        if field.isRequired { put("required", .bool(true)) }
        if field.isNotNull { put("notNull", .bool(true)) }
        if field.isReadOnly { put("readOnly", .bool(true)) }
        if field.enabledWhenNotEditing != plain.enabledWhenNotEditing { put("enabledWhenNotEditing", .bool(field.enabledWhenNotEditing)) }
        if field.isSecure != plain.isSecure { put("secure", .bool(field.isSecure)) }
        if field.isStored != plain.isStored { put("stored", .bool(field.isStored)) }
        if let hint = field.hint { put("hint", .string(hint)) }
        if !field.choices.isEmpty { put("choices", .array(field.choices.map(node(for:)))) }
        if field.kind == .choice || field.kind == .multichoice, field.choiceStyle != .picker {
            put("style", .string(field.choiceStyle.rawValue))
        }
        if field.kind == .action, field.actionStyle != .normal { put("style", .string(field.actionStyle.rawValue)) }
        if field.allowsDeselect { put("allowDeselect", .bool(true)) }
        if !field.suggestions.isEmpty { put("suggestions", .array(field.suggestions.map(JSONNode.string))) }
        if let format = field.format { put("format", .string(format)) }
        if field.isExpanding { put("expanding", .bool(true)) }
        if field.keepsWhitespace { put("keepWhitespace", .bool(true)) }
        if let column = field.labelColumn { put("labelColumn", .string(column)) }
        for rule in field.rules {
            switch rule {
            case .required: put("required", .bool(true))
            case .minLength(let n): put("minLength", .integer(Int64(n)))
            case .maxLength(let n): put("maxLength", .integer(Int64(n)))
            case .pattern(let pattern, let name):
                put("pattern", .string(pattern))
                if let name { put("patternName", .string(name)) }
            case .email: put("email", .bool(true))
            case .range(let min, let max):
                if let min { put("min", .double(min)) }
                if let max { put("max", .double(max)) }
            case .oneOfChoices: put("oneOfChoices", .bool(true))
            case .equalTo(let other): put("equalTo", .string(other))
            case .maxFutureDays(let days): put("maxFutureDays", .integer(Int64(days)))
            case .custom: break // code, not data
            }
        }
        let transforms = field.transforms.compactMap(node(for:))
        if !transforms.isEmpty { put("transforms", .array(transforms)) }
        if !field.messages.isEmpty { put("messages", messages(field.messages)) }
        if let timing = field.validationTiming { put("validation", .string(timing.rawValue)) }
        if let condition = field.hiddenWhen { put("hiddenWhen", node(for: condition)) }
        if let condition = field.disabledWhen { put("disabledWhen", node(for: condition)) }
        if field.defaultValue != .null { put("default", defaultNode(field)) }
        return .object(members)
    }

    static func node(for choice: Choice) -> JSONNode {
        if case .text = choice.value, choice.label == Choice.defaultLabel(for: choice.value), !choice.isDisabled {
            return value(choice.value)
        }
        var members = [JSONNode.Member(key: "value", value: value(choice.value)),
                       JSONNode.Member(key: "label", value: .string(choice.label))]
        if choice.isDisabled { members.append(JSONNode.Member(key: "disabled", value: .bool(true))) }
        return .object(members)
    }

    static func node(for transform: Transform) -> JSONNode? {
        switch transform {
        case .maxLength(let n): return .object([JSONNode.Member(key: "maxLength", value: .integer(Int64(n)))])
        case .date(let format): return .object([JSONNode.Member(key: "date", value: .string(format))])
        case .custom: return nil // code, not data
        default: return namedTransforms.first { $0.1 == transform }.map { .string($0.0) }
        }
    }

    static func node(for condition: Condition) -> JSONNode {
        func object(_ pairs: [(String, JSONNode)]) -> JSONNode {
            .object(pairs.map { JSONNode.Member(key: $0.0, value: $0.1) })
        }
        switch condition {
        case .editing: return .string("editing")
        case .equals(let key, let v): return object([("field", .string(key)), ("equals", value(v))])
        case .notEquals(let key, let v): return object([("field", .string(key)), ("notEquals", value(v))])
        case .isEmpty(let key): return object([("field", .string(key)), ("empty", .bool(true))])
        case .isNotEmpty(let key): return object([("field", .string(key)), ("empty", .bool(false))])
        case .not(let inner): return object([("not", node(for: inner))])
        case .all(let list): return object([("all", .array(list.map(node(for:))))])
        case .any(let list): return object([("any", .array(list.map(node(for:))))])
        }
    }

    /// A field's default as the spec writes it: dates in the field's own format.
    static func defaultNode(_ field: Field) -> JSONNode {
        if case .date = field.defaultValue { return .string(field.format(field.defaultValue)) }
        return value(field.defaultValue)
    }

    static func value(_ value: FieldValue) -> JSONNode {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .integer(i)
        case .double(let d): return .number(d, integer: nil)
        case .text(let s): return .string(s)
        case .date(let d): return .string(ISO8601.shortDateTime(d))
        case .list(let l): return .array(l.map(self.value))
        case .data(let d): return .string(d.base64EncodedString())
        }
    }
}
