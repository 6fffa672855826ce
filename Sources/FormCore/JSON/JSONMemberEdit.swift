/// Sets one member of a JSON object's text in place: the rest of the text —
/// its other members' numbers (`1.50`, `12345678901234567890`), their order,
/// spacing and escapes — stays byte for byte as it was. A field reaching into
/// a JSON column by a dotted path (`prefs.ui.theme`) writes through it, so a
/// change of one key is the only change in the column (docs/fidelity.md).
///
/// ```swift
/// JSONMemberEdit.setting("\"dark\"", at: ["ui", "theme"], in: #"{"b": 1.50, "ui": {"theme": "light"}}"#)
/// // {"b": 1.50, "ui": {"theme": "dark"}}
/// JSONMemberEdit.setting("2", at: ["n"], in: #"{"b": 1.50}"#)   // {"b": 1.50,"n":2}
/// ```
public enum JSONMemberEdit {
    /// `text` with the member at `path` holding `literal` (JSON text): its
    /// value replaced where the member is there, else the member added at
    /// the end of the deepest object on the path there is, with objects for
    /// the rest of the path. `nil` when `text` is no JSON object `JSONReader`
    /// reads, or a member on the path holds something other than an object.
    public static func setting(_ literal: String, at path: [String], in text: String) -> String? {
        let bytes = Array(text.utf8)
        // The whole text must read as one JSON object first (the one reader, `JSONReader`).
        guard !path.isEmpty, case .object? = try? JSONReader.parse(bytes) else { return nil }
        var start = 0
        while start < bytes.count, isSpace(bytes[start]) { start += 1 }
        guard let edit = edit(bytes, objectAt: start, path: path[...], literal: literal) else { return nil }
        var edited = bytes
        edited.replaceSubrange(edit.range, with: Array(edit.replacement.utf8))
        return String(decoding: edited, as: UTF8.self)
    }

    /// `text` with each of `edits` made in turn (`setting(_:at:in:)`); `nil`
    /// for no text (NULL) or when one of them cannot be made.
    public static func setting(_ edits: [(path: [String], literal: String)], in text: String?) -> String? {
        guard var edited = text else { return nil }
        for edit in edits {
            guard let next = setting(edit.literal, at: edit.path, in: edited) else { return nil }
            edited = next
        }
        return edited
    }

    /// What to put where.
    private struct Edit {
        var range: Range<Int>
        var replacement: String
    }

    /// The edit setting `path` in the object starting at `start`.
    private static func edit(_ bytes: [UInt8], objectAt start: Int, path: ArraySlice<String>, literal: String) -> Edit? {
        guard let object = members(of: bytes, objectAt: start) else { return nil }
        let key = path.first!
        guard let member = object.members.last(where: { $0.key == key }) else {
            // Added before the closing brace, after the last member.
            let member = JSONText.quoted(key) + ":" + nested(path.dropFirst(), literal)
            return Edit(range: object.close..<object.close, replacement: object.members.isEmpty ? member : "," + member)
        }
        if path.count == 1 { return Edit(range: member.value, replacement: literal) }
        guard bytes[member.value.lowerBound] == UInt8(ascii: "{") else { return nil }
        return edit(bytes, objectAt: member.value.lowerBound, path: path.dropFirst(), literal: literal)
    }

    /// `literal` under objects for each key of `path`: `{"a":{"b":literal}}`.
    private static func nested(_ path: ArraySlice<String>, _ literal: String) -> String {
        guard let first = path.first else { return literal }
        return "{" + JSONText.quoted(first) + ":" + nested(path.dropFirst(), literal) + "}"
    }

    /// The members of the object at `start` (each key decoded, with the range
    /// of its value's text) and the index of its closing brace, as `JSONReader` reads them.
    private static func members(of bytes: [UInt8], objectAt start: Int) -> (members: [(key: String, value: Range<Int>)], close: Int)? {
        var reader = JSONReader(bytes, from: start)
        var members: [(key: String, value: Range<Int>)] = []
        do {
            var cursor = try reader.beginObject()
            while let key = try reader.nextKey(&cursor) {
                // The value starts past the colon and the space around it.
                var at = reader.index
                while at < bytes.count, isSpace(bytes[at]) || bytes[at] == UInt8(ascii: ":") { at += 1 }
                _ = try reader.memberValue(of: key)
                members.append((reader.string(of: key), at..<reader.index))
            }
        } catch {
            return nil
        }
        return (members, reader.index - 1)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}
