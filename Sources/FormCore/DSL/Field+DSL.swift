import FoundationEssentials

extension Field {
    /// A field bound to a property of a Codable model by key path; its key is
    /// the property's coding key (found by `KeyPathResolver`), its kind
    /// inferred from the property's type unless given.
    ///
    /// ```swift
    /// Field("First name", \Profile.firstName).required().minLength(2)
    /// Field("Newsletter", \Profile.newsletter)          // .bool, from Bool
    /// ```
    public init<Model: Codable, Value: Codable>(_ label: String, _ keyPath: WritableKeyPath<Model, Value>,
                                                kind: FieldKind? = nil) {
        let kind = kind ?? FieldKind.inferred(from: Value.self)
        switch KeyPathResolver.key(for: keyPath) {
        case .success(let key):
            self.init(key: key, label: label, kind: kind)
            if kind == .choice || kind == .multichoice { choices = Field.enumChoices(of: Value.self) }
            holdNoNullUnlessOptional(Value.self)
            if let range = Field.integerRange(of: Value.self) { rules.append(range) }
        case .failure(let problem):
            let written = String(describing: keyPath)
            self.init(key: written, label: label, kind: kind)
            // Computed properties print as `\Model.<computed 0x…>`: the label names the field too.
            self.unresolvedKeyPath = "\(written) of field \(label.quoted): \(problem.message)"
        }
    }

    /// A property that is no Optional holds a value: a record holding NULL
    /// there is no model (`model(as:)` and a typed load threw on it, after a
    /// save had stored it). Such a field refuses NULL (`isNotNull`), and a
    /// `Bool` starts off. Text and arrays read NULL as empty, as a struct
    /// model sets them, so they stay free.
    private mutating func holdNoNullUnlessOptional(_ type: Any.Type) {
        guard !(type is any OptionalType.Type), !(type is String.Type), !(type is any ListType.Type) else { return }
        isNotNull = true
        if type is Bool.Type { defaultValue = .bool(false) }
    }

    /// The range an integer type narrower than `Int64` holds (`UInt8`: 0 to
    /// 255; an unsigned type from 0), as a rule: a number past it is a
    /// validation error (`range`), where the save threw as the model could
    /// not hold it. `nil` for other types.
    static func integerRange(of type: Any.Type) -> Rule? {
        if let optional = type as? any OptionalType.Type { return integerRange(of: optional.wrappedType) }
        func range<T: FixedWidthInteger>(_: T.Type) -> Rule {
            .range(min: Double(T.min), max: T.bitWidth < 64 ? Double(T.max) : nil)
        }
        switch type {
        case is Int8.Type: return range(Int8.self)
        case is Int16.Type: return range(Int16.self)
        case is Int32.Type: return range(Int32.self)
        case is UInt8.Type: return range(UInt8.self)
        case is UInt16.Type: return range(UInt16.self)
        case is UInt32.Type: return range(UInt32.self)
        case is UInt.Type: return range(UInt.self)
        case is UInt64.Type: return range(UInt64.self)
        default: return nil
        }
    }

    /// A field bound to a key by name (dictionaries, settings, tables).
    public init(_ label: String, key: String, kind: FieldKind = .text) {
        self.init(key: key, label: label, kind: kind)
    }

    /// A button; it holds no value and stays enabled while the form is not being edited.
    public init(action key: String, _ label: String, style: ActionStyle = .normal) {
        self.init(key: key, label: label, kind: .action)
        self.actionStyle = style
    }

    func with(_ change: (inout Field) -> Void) -> Field {
        var copy = self
        change(&copy)
        return copy
    }

    /// Adds a rule in its canonical place (replacing one of the same sort), so
    /// that the order modifiers are written in does not change the field.
    func addingRule(_ rule: Rule) -> Field {
        if case .required = rule { return with { $0.isRequired = true } }
        return with { field in
            field.rules.removeAll { $0.sortKey == rule.sortKey }
            field.rules.append(rule)
            field.rules = field.rules.enumerated()
                .sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }
                .map(\.element)
        }
    }

    // MARK: Rules

    public func required(_ isRequired: Bool = true) -> Field { with { $0.isRequired = isRequired } }
    public func minLength(_ length: Int) -> Field { addingRule(.minLength(length)) }
    public func maxLength(_ length: Int) -> Field { addingRule(.maxLength(length)) }
    public func pattern(_ pattern: String, name: String? = nil) -> Field { addingRule(.pattern(pattern, name: name)) }
    public func email() -> Field { addingRule(.email) }
    public func range(_ range: ClosedRange<Int>) -> Field {
        addingRule(.range(min: Double(range.lowerBound), max: Double(range.upperBound)))
    }
    public func range(_ range: ClosedRange<Double>) -> Field { addingRule(.range(min: range.lowerBound, max: range.upperBound)) }
    public func range(min: Double? = nil, max: Double? = nil) -> Field { addingRule(.range(min: min, max: max)) }
    public func oneOfChoices() -> Field { addingRule(.oneOfChoices) }
    public func equalTo(_ otherKey: String) -> Field { addingRule(.equalTo(otherKey)) }
    public func maxFutureDays(_ days: Int) -> Field { addingRule(.maxFutureDays(days)) }
    public func custom(_ code: String, message: String? = nil,
                       check: @escaping @Sendable (FieldValue) -> Bool) -> Field {
        addingRule(.custom(CustomRule(code: code, message: message, check: check)))
    }
    public func rule(_ rule: Rule) -> Field { addingRule(rule) }

    // MARK: Presentation and behaviour

    public func placeholder(_ text: String) -> Field { with { $0.placeholder = text } }
    public func defaultValue(_ value: FieldValue) -> Field { with { $0.defaultValue = value } }
    public func readOnly(_ isReadOnly: Bool = true) -> Field { with { $0.isReadOnly = isReadOnly } }
    public func secure(_ isSecure: Bool = true) -> Field { with { $0.isSecure = isSecure } }
    /// `stored(false)`: validated, never saved (a repeated password).
    public func stored(_ isStored: Bool) -> Field { with { $0.isStored = isStored } }
    public func hint(_ text: String) -> Field { with { $0.hint = text } }
    /// A foreign-key field's rows are shown by this column of the referenced
    /// table (instead of the inferred one).
    public func labelColumn(_ column: String) -> Field { with { $0.labelColumn = column } }
    /// Choices whose values are their labels.
    public func choices(_ values: [String]) -> Field { with { $0.choices = values.map { Choice(.text($0)) } } }
    /// Choices as (value, label, disabled).
    public func choices(_ entries: [(value: FieldValue, label: String, disabled: Bool)]) -> Field {
        with { $0.choices = entries.map { Choice($0.value, label: $0.label, disabled: $0.disabled) } }
    }
    /// Choices as (value, label).
    public func choices(_ entries: [(value: FieldValue, label: String)]) -> Field {
        with { $0.choices = entries.map { Choice($0.value, label: $0.label) } }
    }
    public func choices(_ choices: [Choice]) -> Field { with { $0.choices = choices } }
    public func style(_ style: ChoiceStyle) -> Field { with { $0.choiceStyle = style } }
    public func style(_ style: ActionStyle) -> Field { with { $0.actionStyle = style } }
    public func allowsDeselect(_ allows: Bool = true) -> Field { with { $0.allowsDeselect = allows } }
    public func suggestions(_ values: [String]) -> Field { with { $0.suggestions = values } }
    /// The input's date format (`MM/dd/yyyy`, `HH:mm` ...).
    public func format(_ format: String) -> Field { with { $0.format = format } }
    public func expanding(_ isExpanding: Bool = true) -> Field { with { $0.isExpanding = isExpanding } }
    /// Keeps leading and trailing white space as typed (no `trim`).
    public func keepingWhitespace(_ keeps: Bool = true) -> Field { with { $0.keepsWhitespace = keeps } }
    public func hidden(when condition: Condition) -> Field { with { $0.hiddenWhen = condition } }
    public func disabled(when condition: Condition) -> Field { with { $0.disabledWhen = condition } }
    public func enabledWhenNotEditing(_ enabled: Bool = true) -> Field { with { $0.enabledWhenNotEditing = enabled } }
    /// Transforms run after the kind's own.
    public func transform(_ steps: Transform...) -> Field { with { $0.transforms += steps } }
    /// This field's message for an error code.
    public func message(_ code: String, _ text: String) -> Field { with { $0.messages[code] = text } }
    public func validation(_ timing: ValidationTiming) -> Field { with { $0.validationTiming = timing } }
}

extension Rule {
    /// Rules of the same sort replace each other (custom rules by code).
    var sortKey: String {
        if case .custom(let rule) = self { return "custom:\(rule.code)" }
        return code
    }

    /// The canonical order of rules on a field (and in a spec).
    var rank: Int {
        switch self {
        case .required: return 0
        case .minLength: return 1
        case .maxLength: return 2
        case .pattern: return 3
        case .email: return 4
        case .range: return 5
        case .oneOfChoices: return 6
        case .equalTo: return 7
        case .maxFutureDays: return 8
        case .custom: return 9
        }
    }
}

/// Lets kind inference see through `Optional`.
private protocol OptionalType { static var wrappedType: Any.Type { get } }
extension Optional: OptionalType { static var wrappedType: Any.Type { Wrapped.self } }
private protocol ListType { static var elementType: Any.Type { get } }
extension Array: ListType { static var elementType: Any.Type { Element.self } }

extension FieldKind {
    /// The kind a property of this type gets when none is given: Bool → bool,
    /// integers → integer, Double/Float/Decimal → decimal, Date → date, URL →
    /// url, arrays → multichoice, CaseIterable enums → choice, else text.
    public static func inferred(from type: Any.Type) -> FieldKind {
        if let optional = type as? any OptionalType.Type { return inferred(from: optional.wrappedType) }
        switch type {
        case is Bool.Type: return .bool
        case is Int.Type, is Int8.Type, is Int16.Type, is Int32.Type, is Int64.Type,
             is UInt.Type, is UInt8.Type, is UInt16.Type, is UInt32.Type, is UInt64.Type: return .integer
        case is Double.Type, is Float.Type, is Decimal.Type: return .decimal
        case is Date.Type: return .date
        case is URL.Type: return .url
        case is any CaseIterable.Type: return .choice
        case is any ListType.Type: return .multichoice
        default: return .text
        }
    }
}

extension Field {
    /// The choices of an enum that is `CaseIterable` and `RawRepresentable` by
    /// text or an integer (optional, or the elements of an array, too): one per
    /// case, its raw value the stored value. Empty for any other type, which a
    /// definition check then reports for a choice field.
    static func enumChoices(of type: Any.Type) -> [Choice] {
        if let optional = type as? any OptionalType.Type { return enumChoices(of: optional.wrappedType) }
        if let list = type as? any ListType.Type { return enumChoices(of: list.elementType) }
        guard let cases = type as? any (CaseIterable & RawRepresentable).Type else { return [] }
        return rawChoices(cases)
    }

    private static func rawChoices<T: CaseIterable & RawRepresentable>(_: T.Type) -> [Choice] {
        var choices: [Choice] = []
        for value in T.allCases {
            switch value.rawValue {
            case let text as String: choices.append(Choice(.text(text)))
            case let number as any BinaryInteger:
                guard let exact = Int64(exactly: number) else { return [] }
                choices.append(Choice(.int(exact)))
            default: return []
            }
        }
        return choices
    }
}
