import FoundationEssentials

/// The small JSON documents a page carries in hidden inputs (the base values,
/// the listed keys), written with sorted keys and read back by the same types.
enum WebJSON {
    static func encoded<T: Encodable>(_ value: T, or fallback: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value) else { return fallback }
        return String(decoding: data, as: UTF8.self)
    }

    static func decoded<T: Decodable>(_ type: T.Type, from text: String) -> T? {
        try? JSONDecoder().decode(type, from: Data(text.utf8))
    }
}
