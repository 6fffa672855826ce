/// What a field holds and how it is shown; each kind brings its default
/// value transformer and checks (see `FieldKind.defaultTransforms`).
public enum FieldKind: String, Sendable, Hashable, CaseIterable, Codable {
    case text, name, multiline, password, email, phone, url, address
    case state, zip, integer, decimal, date, time, datetime, bool
    case choice, multichoice, label, comment, action

    /// Display-only kinds hold no value and are never stored or validated.
    public var isDisplayOnly: Bool {
        switch self {
        case .label, .comment, .action: return true
        default: return false
        }
    }
}

/// How a `choice` field is drawn: a picker, a segmented control or a button group.
public enum ChoiceStyle: String, Sendable, Hashable, Codable {
    case picker, segmented, buttons
}

/// How an `action` field (a button) is drawn.
public enum ActionStyle: String, Sendable, Hashable, Codable {
    case normal, destructive, big
}

/// When a field's checks run.
public enum ValidationTiming: String, Sendable, Hashable, Codable {
    /// On every change of the input.
    case onChange = "change"
    /// When the field is committed (the person leaves it).
    case onCommit = "commit"
    /// Only when the form is saved.
    case onSave = "save"
}

extension FieldKind {
    /// A date, a time or both.
    public var isDateLike: Bool { self == .date || self == .time || self == .datetime }

    /// A kind whose changed value is written in the form the row already
    /// stores, whatever form it was given in: a date keeps its layout, epoch
    /// or Julian day, a bool its words (`'Y'` becomes `'N'`, `'true'` `'false'`).
    public var takesStoredForm: Bool { isDateLike || self == .bool }

    /// A kind whose values are text (or bytes kept as they are): text, a name, an e-mail …
    public var holdsText: Bool {
        switch self {
        case .text, .name, .multiline, .password, .email, .phone, .url, .address, .state, .zip: true
        default: false
        }
    }
}

extension Field {
    /// The catalog's wording of a `date` failure for `kind`: a time field's is
    /// "not a valid time", a date-time's "not a valid date and time".
    static func dateVariant(_ kind: FieldKind) -> String? {
        switch kind {
        case .time: "date.time"
        case .datetime: "date.datetime"
        default: nil
        }
    }
}
