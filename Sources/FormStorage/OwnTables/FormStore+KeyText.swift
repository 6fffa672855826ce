import FormCore

/// A record key as drafts and history store it, written without an encoder
/// where that is plain.
extension FormStore {
    /// `keyText(_:)` for a key of plain column names holding integers or
    /// plain text: the bytes `JSONEncoder` with sorted keys writes
    /// (`{"columns":["id"],"values":[{"int":7}]}`), made directly. Every
    /// save writes its key to the history, and the encoder took a sixth of a
    /// save's time. `nil` for any other key, which the encoder writes.
    static func plainKeyText(_ key: RecordKey) -> String? {
        // Written as bytes: appending a dozen pieces to a `String` cost a
        // history row's insert again (issue 14).
        var text: [UInt8] = []
        text.reserveCapacity(64)
        text += #"{"columns":["#.utf8
        for (index, column) in key.columns.enumerated() {
            guard isPlain(column) else { return nil }
            text += (index == 0 ? "\"" : ",\"").utf8
            text += column.utf8
            text.append(UInt8(ascii: "\""))
        }
        text += #"],"values":["#.utf8
        for (index, value) in key.values.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            switch value {
            case .int(let number):
                text += #"{"int":"#.utf8
                text += String(number).utf8
            case .text(let string) where isPlain(string):
                text += #"{"text":""#.utf8
                text += string.utf8
                text.append(UInt8(ascii: "\""))
            default:
                return nil
            }
            text.append(UInt8(ascii: "}"))
        }
        text += "]}".utf8
        return String(decoding: text, as: UTF8.self)
    }

    /// Printable ASCII that JSON writes as it is: no quote, backslash or
    /// slash (which the encoder escapes).
    private static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "/") }
    }
}
