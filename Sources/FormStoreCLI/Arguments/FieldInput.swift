import FormBasics
import FormCore
import FoundationEssentials

/// What a person gives for one field: text to parse as typed, one of the
/// two values text cannot spell apart — no value (SQL NULL) and empty text —
/// or bytes, which JSON gives as `{"$base64": "…"}`.
///
/// | where | NULL | empty text | typed |
/// | --- | --- | --- | --- |
/// | command line | `FIELD:=null` | `FIELD:=""` | `FIELD=text`, `FIELD:=3`, `FIELD:="text"` (bytes: `FIELD:={"$base64": "AP8="}`) |
/// | prompts | `\N` | `""` | anything else (Enter keeps the value) |
/// | `--editor` document | `null` | `""` | anything else (`"null"` is the word) |
///
/// Empty typed text clears the field (see `StorageWorkspace.apply`): no
/// change when it holds nothing, else NULL where the column allows it.
enum FieldInput: Sendable, Hashable {
    case typed(String)
    /// A JSON string or number (`FIELD:="81"`, `{"x": 81}`): parsed as typed
    /// from its text, and stored in its own class where the column takes any,
    /// as an import stores it (`"81"` text, `81` a number, over whatever the row held).
    /// A number's text is kept as written where its value may not give it
    /// back (`12.50`, `1e2`): a text field takes it so, as typed.
    case json(FieldValue, written: String? = nil)
    case null
    case emptyText
    /// Bytes, given as JSON does (`{"$base64": "…"}`, as `export` writes a
    /// BLOB): set as themselves, where text would be parsed as hex.
    case bytes(Data)
    /// A JSON list (`FIELD:=["a","b"]`) and its JSON text: a multichoice
    /// field's choices, a text field's JSON text, as an import reads it.
    case list([FieldValue], json: String)

    /// The text form, for places that only take text (`--where`).
    var text: String {
        switch self {
        case .typed(let text): return text
        case .json(let value, let written): return written ?? ValueText.text(value, kind: nil, blobsBySize: false)
        case .null, .emptyText: return ""
        case .bytes(let data): return data.blobLiteral
        case .list(_, let json): return json
        }
    }

    /// The value given as itself, not typed text to parse (`nil` for `.typed`).
    var givenValue: FieldValue? {
        switch self {
        case .typed, .json: return nil
        case .null: return .null
        case .emptyText: return .text("")
        case .bytes(let data): return .data(data)
        case .list(let values, _): return .list(values)
        }
    }

    /// Whether this input changes a field that shows `shown` and holds `now`.
    func changes(shown: String, now: FieldValue) -> Bool {
        guard let given = givenValue else { return text != shown }
        return given != now
    }
}
