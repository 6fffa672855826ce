import FormBasics
import FoundationEssentials

/// A mistake in a form's definition, located by its path in the JSON spec
/// notation (`$.sections[1].fields[2].pattern`) whether the form came from a
/// spec or from the DSL: the same error a spec is rejected with.
public typealias FormDefinitionError = SpecError

extension Form {
    /// Every mistake in the definition: key paths without a coding key,
    /// duplicate or empty keys, rules and conditions naming unknown fields,
    /// defaults not among the choices, minLength > maxLength, min > max, bad
    /// regular expressions, choice fields without choices (an enum-backed
    /// field whose enum is not `CaseIterable` and `RawRepresentable`).
    public var definitionProblems: [FormDefinitionError] {
        var problems: [FormDefinitionError] = []
        // A path is written out only for a message: writing one per field was
        // most of checking a form with no mistakes (117k instructions at 10
        // fields). A duplicate key's first place is looked for when found.
        var seen: Set<String> = []
        func path(_ section: Int, _ field: Int) -> String { "$.sections[\(section)].fields[\(field)]" }
        func firstPath(of key: String) -> String {
            for (s, section) in sections.enumerated() {
                if let f = section.fields.firstIndex(where: { $0.key == key && $0.unresolvedKeyPath == nil }) { return path(s, f) }
            }
            return "$.sections"
        }
        let count = fields.count
        // Checked first and alone: a form over the limit is not worth walking.
        guard count <= Form.maximumFieldCount else {
            return [FormDefinitionError(path: "$.sections", message: "a form may have at most "
                                        + "\(Form.maximumFieldCount) fields; this one has \(count)")]
        }
        let keys = Set(fields.map(\.key))
        for (s, section) in sections.enumerated() {
            for (f, field) in section.fields.enumerated() {
                func at() -> String { path(s, f) }
                let before = problems.count
                defer {
                    for i in before..<problems.count { problems[i].field = field.key }
                }
                func problem(_ key: String, _ message: String) {
                    problems.append(FormDefinitionError(path: "\(at()).\(key)", message: message))
                }
                if let unresolved = field.unresolvedKeyPath {
                    problem("key", "no coding key found for \(unresolved)")
                } else if field.key.isEmpty {
                    problem("key", "a field needs a key")
                } else if !seen.insert(field.key).inserted {
                    problem("key", "duplicate field key \"\(field.key)\" (first at \(firstPath(of: field.key)).key)")
                }
                problems += field.ruleProblems(at: at(), keys: keys)
                problems += field.transformProblems(at: at())
                for (name, condition) in [("hiddenWhen", field.hiddenWhen), ("disabledWhen", field.disabledWhen)] {
                    guard let condition else { continue }
                    if condition.depth > Condition.maximumDepth {
                        problem(name, "conditions may nest at most \(Condition.maximumDepth) deep; this one nests \(condition.depth)")
                    } else {
                        problems += condition.problems(at: "\(at()).\(name)", keys: keys)
                    }
                }
                if field.kind == .choice || field.kind == .multichoice {
                    // A multichoice field without choices holds free-form tags (a list of text).
                    if field.kind == .choice && field.choices.isEmpty { problem("choices", "a choice field needs choices") }
                    let values = field.choices.map(\.value)
                    let defaults = field.defaultValue.listValue ?? (field.defaultValue == .null ? [] : [field.defaultValue])
                    if !field.choices.isEmpty, let stray = defaults.first(where: { !values.contains($0) }) {
                        problem("default", "default \(FieldValue.plainText(stray).quoted) is not among the choices "
                                + values.map { FieldValue.plainText($0) }.joined(separator: ", "))
                    }
                }
            }
        }
        for (r, rule) in rules.enumerated() {
            let at = "$.rules[\(r)]"
            switch rule {
            case .fieldsEqual(let field, let other, _, _):
                if !keys.contains(field) {
                    problems.append(FormDefinitionError(path: "\(at).field", message: "unknown field \(field.quoted)"))
                }
                if !keys.contains(other) {
                    problems.append(FormDefinitionError(path: "\(at).other", message: "unknown field \(other.quoted)"))
                }
            case .custom(let custom):
                if let field = custom.field, !keys.contains(field) {
                    problems.append(FormDefinitionError(path: "\(at).field", message: "unknown field \(field.quoted)"))
                }
            }
        }
        problems += groupProblems
        return problems
    }

    /// Throws the first definition problem.
    ///
    /// ```swift
    /// let form = try Form("profile", for: Profile.self) { ... }.checked()
    /// ```
    /// - throws: `FormDefinitionError` with the path of the mistake.
    public func checked() throws(FormDefinitionError) -> Form {
        if let first = definitionProblems.first { throw first }
        return self
    }

    /// Throws the first definition problem, for the places a form is used
    /// (a session opening it, a store mapping it): a mistake such as a
    /// misspelt condition key would otherwise hide a field for ever.
    ///
    /// - throws: `FormDefinitionError` naming the path and the field.
    public func checkDefinition() throws(FormDefinitionError) {
        // Found once per form (`CompiledForm`): a service opens a session per request.
        if let problem = CompiledForm.of(self).definitionProblem { throw problem }
    }
}

extension Field {
    func ruleProblems(at path: @autoclosure () -> String, keys: Set<String>) -> [FormDefinitionError] {
        var problems: [FormDefinitionError] = []
        var minLength: Int?
        var maxLength: Int?
        for rule in rules {
            switch rule {
            case .minLength(let n):
                minLength = n
                if n < 0 { problems.append(.init(path: "\(path()).minLength", message: "must not be negative")) }
            case .maxLength(let n):
                maxLength = n
                if n < 0 { problems.append(.init(path: "\(path()).maxLength", message: "must not be negative")) }
            case .pattern(let pattern, _):
                if let problem = TextPattern.problem(in: pattern) {
                    problems.append(.init(path: "\(path()).pattern", message: problem))
                }
            case .range(let min, let max):
                if let min, let max, min > max {
                    problems.append(.init(path: "\(path()).min", message: "min \(Transform.decimalText(min)) is greater than max \(Transform.decimalText(max))"))
                }
            case .equalTo(let other):
                if !keys.contains(other) { problems.append(.init(path: "\(path()).equalTo", message: "unknown field \(other.quoted)")) }
            case .maxFutureDays(let days):
                if days < 0 { problems.append(.init(path: "\(path()).maxFutureDays", message: "must not be negative")) }
            default:
                break
            }
        }
        if let minLength, let maxLength, minLength > maxLength {
            problems.append(.init(path: "\(path()).minLength", message: "minLength \(minLength) is greater than maxLength \(maxLength)"))
        }
        return problems
    }
}

extension Field {
    /// Transform parameters that make no sense: a `maxLength` below 1 would
    /// empty every value, an empty date format would read nothing.
    func transformProblems(at path: @autoclosure () -> String) -> [FormDefinitionError] {
        transforms.enumerated().compactMap { index, transform in
            switch transform {
            case .maxLength(let n) where n < 1:
                return .init(path: "\(path()).transforms[\(index)].maxLength", message: "must be at least 1, not \(n)")
            case .date(let format) where format.trimmingSpaces().isEmpty:
                return .init(path: "\(path()).transforms[\(index)].date", message: "a date format must not be empty")
            default:
                return nil
            }
        }
    }
}

extension Form {
    /// The most fields a form may have: a spec is someone else's file, and
    /// each field costs every command that opens the form.
    public static let maximumFieldCount = 10_000
}

extension Condition {
    /// The deepest a condition may nest (`not`, `all`, `any` inside each other).
    public static let maximumDepth = 32

    /// How deep this condition nests: 1 for a test on one field.
    public var depth: Int {
        switch self {
        case .equals, .notEquals, .isEmpty, .isNotEmpty, .editing: return 1
        case .not(let inner): return 1 + inner.depth
        case .all(let list), .any(let list): return 1 + (list.map(\.depth).max() ?? 0)
        }
    }

    /// Conditions naming unknown fields, with their paths in spec notation.
    func problems(at path: @autoclosure () -> String, keys: Set<String>) -> [FormDefinitionError] {
        switch self {
        case .equals(let key, _), .notEquals(let key, _), .isEmpty(let key), .isNotEmpty(let key):
            return keys.contains(key) ? [] : [FormDefinitionError(path: "\(path()).field", message: "unknown field \(key.quoted)")]
        case .editing:
            return []
        case .not(let inner):
            return inner.problems(at: "\(path()).not", keys: keys)
        case .all(let list):
            return list.enumerated().flatMap { $1.problems(at: "\(path()).all[\($0)]", keys: keys) }
        case .any(let list):
            return list.enumerated().flatMap { $1.problems(at: "\(path()).any[\($0)]", keys: keys) }
        }
    }
}

extension String {
    /// The string in double quotes, for messages.
    var quoted: String { "\"\(self)\"" }
}
