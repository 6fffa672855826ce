extension FormSpec {
    static func readForm(_ spec: SpecNode) throws(SpecError) -> Form {
        let object = try spec.object(allowed: formKeys)
        let versionNode = try object.required("formstore")
        let formatVersion = try versionNode.int()
        guard formatVersion == FormSpec.formatVersion else {
            throw versionNode.fail("unsupported spec format \(formatVersion); this FormStore reads \(FormSpec.formatVersion)")
        }
        let nameNode = try object.required("name")
        let name = try nameNode.string()
        guard !name.isEmpty else { throw nameNode.fail("a form needs a name") }

        var sections: [Section] = []
        for node in try object.required("sections").array() {
            sections.append(try readSection(node))
        }
        var form = Form(name: name, title: try object["title"]?.string(), sections: sections)
        if let node = object["version"] {
            form.version = try node.int()
            guard form.version >= 1 else { throw node.fail("the version must be at least 1") }
        }
        if let node = object["mode"] { form.mode = try node.word(modes, what: "mode") }
        if let node = object["table"] { form.table = try node.string() }
        if let node = object["editsOtherTable"] { form.editsOtherTable = try node.bool() }
        if let node = object["primaryKey"] {
            if case .string(let single) = node.node { form.primaryKey = [single] } else { form.primaryKey = try node.strings() }
        }
        if let node = object["versionColumn"] { form.versionColumn = try node.string() }
        if let node = object["validation"] { form.validationTiming = try node.word(timings, what: "validation timing") }
        if let node = object["unsavedChangesWarning"] {
            switch node.node {
            case .string(let text): form.unsavedChangesWarning = text
            case .bool(false): form.unsavedChangesWarning = nil
            default: throw node.fail("expected a string or false, found \(node.node.typeName)")
            }
        }
        if let node = object["messages"] { form.messages.form = try readMessages(node) }
        if let node = object["kindMessages"] {
            let kindsObject = try node.object(allowed: FieldKind.allCases.map(\.rawValue))
            for key in kindsObject.keys {
                guard let kind = FieldKind(rawValue: key), let child = kindsObject[key] else { continue }
                form.messages.kinds[kind] = try readMessages(child)
            }
        }
        if let node = object["rules"] {
            for item in try node.array() { form.rules.append(try readRule(item)) }
        }
        return form
    }

    static func readSection(_ spec: SpecNode) throws(SpecError) -> Section {
        let object = try spec.object(allowed: sectionKeys)
        var fields: [Field] = []
        for node in try object.required("fields").array() {
            fields.append(try readField(node))
        }
        if let node = object["group"] {
            return Section(try object["title"]?.string(), group: try readGroup(node, fields: fields))
        }
        return Section(try object["title"]?.string(), fields: fields)
    }

    static func readMessages(_ spec: SpecNode) throws(SpecError) -> [String: String] {
        guard case .object(let members) = spec.node else {
            throw spec.fail("expected an object of messages by error code, found \(spec.node.typeName)")
        }
        var messages: [String: String] = [:]
        for member in members {
            messages[member.key] = try SpecNode(node: member.value, path: "\(spec.path).\(member.key)").string()
        }
        return messages
    }

    static func readRule(_ spec: SpecNode) throws(SpecError) -> FormRule {
        let object = try spec.object(allowed: ruleKeys)
        let type = try object.required("type").word([("equal", "equal")], what: "rule type")
        switch type {
        default:
            return .fieldsEqual(try object.required("field").string(), other: try object.required("other").string(),
                                code: try object["code"]?.string() ?? "mismatch",
                                message: try object["message"]?.string())
        }
    }

    // MARK: Fields

    static func readField(_ spec: SpecNode) throws(SpecError) -> Field {
        let object = try spec.object(allowed: fieldKeys)
        let keyNode = try object.required("key")
        let key = try keyNode.string()
        guard !key.isEmpty else { throw keyNode.fail("a field needs a key") }
        let kind = try object["kind"]?.word(kinds, what: "kind") ?? .text
        var field = Field(key: key, label: try object["label"]?.string(), kind: kind)

        if let node = object["placeholder"] { field.placeholder = try node.string() }
        if let node = object["required"] { field.isRequired = try node.bool() }
        if let node = object["notNull"] { field.isNotNull = try node.bool() }
        if let node = object["readOnly"] { field.isReadOnly = try node.bool() }
        if let node = object["enabledWhenNotEditing"] { field.enabledWhenNotEditing = try node.bool() }
        if let node = object["secure"] { field.isSecure = try node.bool() }
        if let node = object["stored"] { field.isStored = try node.bool() }
        if let node = object["hint"] { field.hint = try node.string() }
        if let node = object["choices"] { field.choices = try readChoices(node) }
        if let node = object["style"] {
            switch kind {
            case .choice, .multichoice: field.choiceStyle = try node.word(choiceStyles, what: "choice style")
            case .action: field.actionStyle = try node.word(actionStyles, what: "action style")
            default: throw node.fail("\"style\" applies to choice, multichoice and action fields, not \(kind.rawValue)")
            }
        }
        if let node = object["allowDeselect"] { field.allowsDeselect = try node.bool() }
        if let node = object["suggestions"] { field.suggestions = try node.strings() }
        if let node = object["format"] {
            field.format = [.date, .time, .datetime].contains(kind) ? try dateFormat(node) : try node.string()
        }
        if let node = object["expanding"] { field.isExpanding = try node.bool() }
        if let node = object["keepWhitespace"] { field.keepsWhitespace = try node.bool() }
        if let node = object["labelColumn"] {
            let column = try node.string()
            guard !column.isEmpty else { throw node.fail("\"labelColumn\" needs a column name") }
            field.labelColumn = column
        }

        if let node = object["minLength"] { field = field.addingRule(.minLength(try node.int())) }
        if let node = object["maxLength"] { field = field.addingRule(.maxLength(try node.int())) }
        if let node = object["pattern"] {
            field = field.addingRule(.pattern(try node.string(), name: try object["patternName"]?.string()))
        } else if let node = object["patternName"] {
            throw node.fail("\"patternName\" needs a \"pattern\"")
        }
        if let node = object["email"], try node.bool() { field = field.addingRule(.email) }
        if object["min"] != nil || object["max"] != nil {
            field = field.addingRule(.range(min: try object["min"]?.number(), max: try object["max"]?.number()))
        }
        if let node = object["oneOfChoices"], try node.bool() { field = field.addingRule(.oneOfChoices) }
        if let node = object["maxFutureDays"] { field = field.addingRule(.maxFutureDays(try node.int())) }
        if let node = object["equalTo"] { field = field.addingRule(.equalTo(try node.string())) }

        if let node = object["transforms"] {
            for item in try node.array() { field.transforms.append(try readTransform(item)) }
        }
        if let node = object["messages"] { field.messages = try readMessages(node) }
        if let node = object["validation"] { field.validationTiming = try node.word(timings, what: "validation timing") }
        if let node = object["hiddenWhen"] { field.hiddenWhen = try readCondition(node) }
        if let node = object["disabledWhen"] { field.disabledWhen = try readCondition(node) }
        // Last: a default is read in the field's terms (its choices, its date format).
        if let node = object["default"] {
            let value = try readDefault(node, for: field)
            // A default its own rules refuse would make every new record fail: said at once.
            if let broken = defaultRuleBreaks(value, of: field) {
                throw node.fail("the default breaks the field's own rule: \(broken)")
            }
            field.defaultValue = value
        }
        return field
    }

    /// A date format: a letter the dates do not know (`QQQQ`) makes a field
    /// that reads no date at all, so it is refused here.
    private static func dateFormat(_ node: SpecNode) throws(SpecError) -> String {
        let format = try node.string()
        if let problem = DateText.formatProblem(format) { throw node.fail(problem) }
        return format
    }

    /// The first of `field`'s rules that reads its value alone (length,
    /// e-mail, range) and refuses `value`, as its message says it.
    /// (A default among no choice is said elsewhere, naming the choices.)
    private static func defaultRuleBreaks(_ value: FieldValue, of field: Field) -> String? {
        guard value != .null else { return nil }
        // Not the pattern: one that does not compile is said at its own key, not as the default's.
        let alone: Set<String> = ["minLength", "maxLength", "email", "range"]
        let form = Form(name: "default", sections: [Section(nil, fields: [field])])
        return form.validate(field: field, value: value, values: [field.key: value])
            .first { alone.contains($0.code) }?.message
    }

    static func readChoices(_ spec: SpecNode) throws(SpecError) -> [Choice] {
        var choices: [Choice] = []
        for item in try spec.array() {
            switch item.node {
            case .string, .number:
                choices.append(Choice(try scalar(item)))
            case .object:
                let object = try item.object(allowed: choiceKeys)
                choices.append(Choice(try scalar(try object.required("value")),
                                      label: try object["label"]?.string(),
                                      disabled: try object["disabled"]?.bool() ?? false))
            default:
                throw item.fail("expected a string, a number or an object with \"value\", found \(item.node.typeName)")
            }
        }
        return choices
    }

    /// A string, number or boolean as a FieldValue.
    static func scalar(_ spec: SpecNode) throws(SpecError) -> FieldValue {
        switch spec.node {
        case .string(let s): return .text(s)
        case .number(let d, let integer): return integer.map(FieldValue.int) ?? .double(d)
        case .bool(let b): return .bool(b)
        case .null: return .null
        default: throw spec.fail("expected a string, a number or a boolean, found \(spec.node.typeName)")
        }
    }

    static func readTransform(_ spec: SpecNode) throws(SpecError) -> Transform {
        switch spec.node {
        case .string:
            return try spec.word(namedTransforms, what: "transform")
        case .object(let members) where members.count == 1:
            let object = try spec.object(allowed: ["maxLength", "date"])
            if let node = object["maxLength"] { return .maxLength(try node.int()) }
            return .date(format: try dateFormat(try object.required("date")))
        default:
            throw spec.fail("expected a transform name or {\"maxLength\": n} or {\"date\": format}, found \(spec.node.typeName)")
        }
    }

    static func readDefault(_ spec: SpecNode, for field: Field) throws(SpecError) -> FieldValue {
        if case .null = spec.node { return .null }
        switch field.kind {
        case .label, .comment, .action:
            throw spec.fail("a \(field.kind.rawValue) field holds no value")
        case .date, .time, .datetime:
            let text = try spec.string()
            switch field.parse(text) {
            case .success(let value): return value
            case .failure: throw spec.fail("\(text.quoted) is not a date in the format \((field.format ?? field.kind.defaultDateFormat ?? "").quoted)")
            }
        case .integer:
            return .int(Int64(try spec.int()))
        case .decimal:
            return .double(try spec.number())
        case .bool:
            return .bool(try spec.bool())
        case .multichoice:
            var values: [FieldValue] = []
            for item in try spec.array() { values.append(try scalar(item)) }
            return .list(values)
        case .choice:
            return try scalar(spec)
        default:
            return .text(try spec.string())
        }
    }

    // MARK: Conditions

    static func readCondition(_ spec: SpecNode) throws(SpecError) -> Condition {
        switch spec.node {
        case .string(let word):
            guard word == "editing" else { throw spec.fail("unknown condition \(word.quoted); expected \"editing\" or an object") }
            return .editing
        case .object(let members):
            if members.count == 1, let only = members.first, ["not", "all", "any"].contains(only.key) {
                let child = SpecNode(node: only.value, path: "\(spec.path).\(only.key)")
                switch only.key {
                case "not": return .not(try readCondition(child))
                case "all":
                    var list: [Condition] = []
                    for item in try child.array() { list.append(try readCondition(item)) }
                    return .all(list)
                default:
                    var list: [Condition] = []
                    for item in try child.array() { list.append(try readCondition(item)) }
                    return .any(list)
                }
            }
            let object = try spec.object(allowed: ["field", "equals", "notEquals", "empty", "not", "all", "any"])
            let key = try object.required("field").string()
            let tests = ["equals", "notEquals", "empty"].filter { object[$0] != nil }
            guard tests.count == 1 else {
                throw spec.fail("a condition on a field needs exactly one of \"equals\", \"notEquals\", \"empty\"")
            }
            if let node = object["equals"] { return .equals(key, try conditionValue(node)) }
            if let node = object["notEquals"] { return .notEquals(key, try conditionValue(node)) }
            return try object.required("empty").bool() ? .isEmpty(key) : .isNotEmpty(key)
        default:
            throw spec.fail("expected a condition (\"editing\" or an object), found \(spec.node.typeName)")
        }
    }

    static func conditionValue(_ spec: SpecNode) throws(SpecError) -> FieldValue {
        if case .array = spec.node {
            var values: [FieldValue] = []
            for item in try spec.array() { values.append(try scalar(item)) }
            return .list(values)
        }
        return try scalar(spec)
    }
}
