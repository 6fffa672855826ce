/// What a person gives for one field: text to parse as typed, or one of the
/// two values text cannot spell apart — no value (SQL NULL) and empty text.
///
/// | where | NULL | empty text | typed |
/// | --- | --- | --- | --- |
/// | command line | `FIELD:=null` | `FIELD:=""` | `FIELD=text`, `FIELD:=3`, `FIELD:="text"` |
/// | prompts | `\N` | `""` | anything else (Enter keeps the value) |
/// | `--editor` document | `null` | `""` | anything else (`"null"` is the word) |
///
/// Empty typed text clears the field (see `StorageWorkspace.apply`): no
/// change when it holds nothing, else NULL where the column allows it.
enum FieldInput: Sendable, Hashable {
    case typed(String)
    case null
    case emptyText

    /// The text form, for places that only take text (`--where`).
    var text: String {
        switch self {
        case .typed(let text): return text
        case .null, .emptyText: return ""
        }
    }
}
