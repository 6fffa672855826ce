public import FoundationEssentials
import FormBasics

/// Reads a date as a column may store it (an epoch, a Julian day, a text
/// layout such as `2024-3-5`), where the JSON door is given one: a value as
/// `export` writes it reads back through `set --json` and a group's rows as
/// it does through `import`. `FormStore` and `PostgresFormStore` provide it;
/// a session asks its backend, or the reader it is given
/// (`FormSession.storedDateReader`).
public protocol StoredDateReading {
    /// The date `value` holds as the column of `field` may store it (a row
    /// field of `group`'s table, else of the form's); nil when it holds none.
    func storedDate(_ value: FieldValue, field: String, group: String?, of form: Form) -> Date?
}

extension FormSession {
    /// What reads a date given in a stored form (`StoredDateReading`): the
    /// one set here, else the backend, if it reads them.
    public var storedDateReader: (any StoredDateReading)? {
        get { extrasIfMade?.storedDateReader ?? backend as? any StoredDateReading }
        set { extras.storedDateReader = newValue }
    }

    /// The date `given` holds as `field`'s column may store it, when it is
    /// no ISO 8601 text (which the door reads itself): a number, or text in
    /// another layout.
    func storedDate(_ given: FieldValue, for field: Field, group: String?) -> Date? {
        switch given {
        case .int, .double: break
        case .text(let text) where ISO8601.parse(text) == nil: break
        default: return nil
        }
        return storedDateReader?.storedDate(given, field: field.key, group: group, of: form)
    }
}
