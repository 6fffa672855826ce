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
    /// value replaced where the member is there (the last of two of one
    /// name, as readers take it), else the member added at the end of the
    /// deepest object on the path there is, with objects for the rest of the
    /// path. `nil` when `text` is no JSON object, or a member on the path
    /// holds something other than an object.
    public static func setting(_ literal: String, at path: [String], in text: String) -> String? {
        guard !path.isEmpty else { return nil }
        var scanner = Scanner(bytes: Array(text.utf8))
        scanner.skipSpace()
        guard scanner.peek == UInt8(ascii: "{") else { return nil }
        guard let edit = edit(&scanner, objectAt: scanner.index, path: path[...], literal: literal) else { return nil }
        // Only white space may follow the document.
        var end = scanner
        end.index = edit.documentEnd
        end.skipSpace()
        guard end.index == end.bytes.count else { return nil }
        var bytes = scanner.bytes
        bytes.replaceSubrange(edit.range, with: Array(edit.replacement.utf8))
        return String(decoding: bytes, as: UTF8.self)
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

    /// What to put where, and where the object at the top ends.
    private struct Edit {
        var range: Range<Int>
        var replacement: String
        var documentEnd: Int
    }

    /// The edit setting `path` in the object starting at `start`.
    private static func edit(_ scanner: inout Scanner, objectAt start: Int, path: ArraySlice<String>,
                             literal: String) -> Edit? {
        guard let object = scanner.object(at: start) else { return nil }
        let key = path.first!
        guard let member = object.members.last(where: { $0.key == key }) else {
            // Added before the closing brace, after the last member.
            let member = JSONText.quoted(key) + ":" + nested(path.dropFirst(), literal)
            return Edit(range: object.close..<object.close, replacement: object.members.isEmpty ? member : "," + member,
                        documentEnd: object.close + 1)
        }
        if path.count == 1 {
            return Edit(range: member.value, replacement: literal, documentEnd: object.close + 1)
        }
        guard scanner.bytes[member.value.lowerBound] == UInt8(ascii: "{"),
              var inner = edit(&scanner, objectAt: member.value.lowerBound, path: path.dropFirst(), literal: literal)
        else { return nil }
        inner.documentEnd = object.close + 1
        return inner
    }

    /// `literal` under objects for each key of `path`: `{"a":{"b":literal}}`.
    private static func nested(_ path: ArraySlice<String>, _ literal: String) -> String {
        guard let first = path.first else { return literal }
        return "{" + JSONText.quoted(first) + ":" + nested(path.dropFirst(), literal) + "}"
    }

    /// A cursor over the text's bytes that finds members and skips values.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        /// The members of the object at `start` (each key decoded, with the
        /// range of its value's text), and the index of its closing brace.
        mutating func object(at start: Int) -> (members: [(key: String, value: Range<Int>)], close: Int)? {
            index = start + 1
            var members: [(key: String, value: Range<Int>)] = []
            skipSpace()
            if peek == UInt8(ascii: "}") { return (members, index) }
            while true {
                skipSpace()
                guard let key = string() else { return nil }
                skipSpace()
                guard peek == UInt8(ascii: ":") else { return nil }
                index += 1
                skipSpace()
                let valueStart = index
                guard skipValue() else { return nil }
                members.append((key, valueStart..<index))
                skipSpace()
                switch peek {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"): return (members, index)
                default: return nil
                }
            }
        }

        /// Moves past one value; false when there is none that reads.
        mutating func skipValue() -> Bool {
            guard let byte = peek else { return false }
            switch byte {
            case UInt8(ascii: "\""):
                return string() != nil
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                // Brackets counted, strings skipped whole: a bracket inside one is text.
                var depth = 0
                while let next = peek {
                    switch next {
                    case UInt8(ascii: "\""):
                        guard string() != nil else { return false }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            index += 1
                            return true
                        }
                    default: break
                    }
                    index += 1
                }
                return false
            default:
                // A number, true, false or null: up to the next delimiter.
                let start = index
                while let next = peek, !",}] \t\r\n".utf8.contains(next) { index += 1 }
                return index > start
            }
        }

        /// The string starting here, its escapes decoded; the index moves past it.
        mutating func string() -> String? {
            guard peek == UInt8(ascii: "\"") else { return nil }
            index += 1
            var out: [UInt8] = []
            var pendingHigh: UInt16?
            while let byte = peek {
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(validating: out, as: UTF8.self) ?? String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard let escaped = peek else { return nil }
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        guard index + 4 <= bytes.count,
                              let unit = UInt16(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16) else { return nil }
                        index += 4
                        if (0xD800...0xDBFF).contains(unit) {
                            pendingHigh = unit
                            continue
                        }
                        let scalar: Unicode.Scalar?
                        if let high = pendingHigh, (0xDC00...0xDFFF).contains(unit) {
                            scalar = Unicode.Scalar(0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(unit - 0xDC00))
                        } else {
                            scalar = Unicode.Scalar(unit)
                        }
                        out.append(contentsOf: Array(String(scalar ?? "\u{FFFD}").utf8))
                    default: out.append(escaped)
                    }
                default:
                    out.append(byte)
                }
                pendingHigh = nil
            }
            return nil
        }
    }
}
