import FormBasics
import FoundationEssentials

extension Transform {
    /// Moves a value one step towards the model (input → model value).
    ///
    /// ```swift
    /// try Transform.phone.parse("(555) 123-4567", field: phone)   // .text("5551234567")
    /// ```
    ///
    /// Text steps (`trim`, `uppercase` ...) leave non-text values alone; typed
    /// steps turn an empty text into `.null`.
    /// - throws: a `FieldError` with the field's key, the step's code
    ///   (`number`, `date`, `phone`, `bool`, `choice`) and the catalog's default message.
    public func parse(_ input: FieldValue, field: Field) throws(FieldError) -> FieldValue {
        switch self {
        case .trim:
            return mapText(input, String.trimmingWhitespaceAndNewlines)
        case .removeSpaces:
            return mapText(input) { String(String.UnicodeScalarView($0.unicodeScalars.filter { !$0.isSpaceOrNewline })) }
        case .uppercase:
            return mapText(input) { $0.uppercased() }
        case .lowercase:
            return mapText(input) { $0.lowercased() }
        case .maxLength(let limit):
            return mapText(input) { String($0.prefix(max(0, limit))) }
        case .digitsOnly:
            return mapText(input) { String($0.filter(\.isASCIIDigit)) }
        case .phone:
            guard case .text(let text) = input else { return input }
            let digits = text.filter(\.isASCIIDigit)
            if text.trimmingSpaces().isEmpty { return .text("") }
            // Only the characters a formatted number contains may surround the digits.
            let extra = text.filter { !$0.isASCIIDigit && !"()- .+".contains($0) }
            var national = digits
            if national.count == 11, national.hasPrefix("1") { national.removeFirst() }
            guard extra.isEmpty, national.count == 10 else { throw failure("phone", field) }
            return .text(String(national))
        case .integer:
            guard case .text(let raw) = input else {
                guard case .double(let d) = input else { return input }
                if let i = FieldValue.double(d).intValue { return .int(i) }
                // A number given as a number (JSON's `1.5`) is named as typed text is, not as a kind.
                throw failure("number", field, variant: d.isFinite && d.rounded(.towardZero) != d ? "number.whole" : "number.range")
            }
            let text = raw.trimmingSpaces()
            if text.isEmpty { return .null }
            if let value = Int64(text.hasPrefix("+") ? String(text.dropFirst()) : text) { return .int(value) }
            // Numeric text that is no Int64: a whole number written with a point or an exponent (`5.0`, `1e3`)
            // is taken; else it says what it is not, whole or in range (the code stays `number`).
            guard text.allSatisfy({ "0123456789.+-eE".contains($0) }), let number = Double(text), number.isFinite else {
                throw failure("number", field)
            }
            // Judged by its digits, not the double: `9007199254740993.0` was stored as …992, and
            // `1.9999999999999999999` (a double's 2.0) as 2.
            if let digits = DecimalDigits(text) {
                if digits.exponent < 0 { throw failure("number", field, variant: "number.whole") }
                if let exact = digits.wholeValue { return .int(exact) }
                throw failure("number", field, variant: "number.range")
            }
            if number.rounded(.towardZero) != number { throw failure("number", field, variant: "number.whole") }
            guard abs(number) < 0x1p63, let value = FieldValue.double(number).intValue else {
                throw failure("number", field, variant: "number.range")
            }
            return .int(value)
        case .decimal:
            guard case .text(let raw) = input else {
                if case .int(let i) = input { return .decimal(i) }
                return input
            }
            let text = raw.trimmingSpaces()
            if text.isEmpty { return .null }
            // A whole number past 2^53, which a double would make another, is kept as an integer.
            if let whole = Int64(text.hasPrefix("+") ? String(text.dropFirst()) : text), whole.magnitude > 1 << 53 {
                return .int(whole)
            }
            // The names FormStore writes a float's non-finite values by (`export`, the JSON door) read
            // back as them, as import reads them; Double(_:)'s own words (nan, inf) and hex are refused.
            if let named = ValueBytes.nonFiniteDouble(named: text) { return .double(named) }
            guard text.allSatisfy({ "0123456789.+-eE".contains($0) }), let value = Double(text), value.isFinite else {
                throw failure("number", field)
            }
            // A number a double would silently make another is refused: one too close to 0
            // (`1e-400` would be 0), a whole one past Int64 (`12345678901234567890` would end in …167).
            let mantissa = text.prefix { $0 != "e" && $0 != "E" }
            if value == 0, mantissa.contains(where: { "123456789".contains($0) }) {
                throw failure("number", field, variant: "number.tiny")
            }
            if mantissa == text, !text.contains("."), Int64(exactly: value) == nil {
                throw failure("number", field, variant: "number.exact")
            }
            // So is one with more digits than a double holds (`0.30000000000000000001` would be 0.3,
            // a NUMERIC(30,10)'s `12345678901234567890.1234567891` end in …7000).
            guard DecimalDigits.holdsExactly(text, value) else {
                throw failure("number", field, variant: "number.exact")
            }
            return .double(value)
        case .date(let format):
            guard case .text(let raw) = input else { return input }
            let text = raw.trimmingSpaces()
            if text.isEmpty { return .null }
            guard let date = DateText.parse(text, format: format) else {
                throw failure("date", field, variant: Field.dateVariant(field.kind))
            }
            // Finer than a microsecond would be rounded away, never said.
            if DateText.fractionDigits(text) > 6 { throw failure("date", field, variant: "date.fraction") }
            return .date(date)
        case .yesNo:
            guard case .text(let raw) = input else { return input }
            switch raw.trimmingSpaces().lowercased() {
            case "": return .null
            // The words a bool column may hold (docs/fidelity.md), each read back as typed.
            case "yes", "y", "true", "t", "1", "on": return .bool(true)
            case "no", "n", "false", "f", "0", "off": return .bool(false)
            default: throw failure("bool", field)
            }
        case .choiceLabel:
            if case .list(let items) = input {
                var values: [FieldValue] = []
                for item in items { values.append(try Transform.choiceLabel.parse(item, field: field)) }
                return .list(values)
            }
            return try Transform.choice(for: input, in: field)
        case .list:
            guard case .text(let raw) = input else { return input }
            let items = raw.split(separator: ",")
                .map { $0.trimmingSpaces() }
                .filter { !$0.isEmpty }
            return items.isEmpty ? .null : .list(items.map { .text($0) })
        case .blobLiteral:
            guard case .text(let text) = input, text.hasPrefix("x'") || text.hasPrefix("X'"), text.hasSuffix("'"),
                  text.utf8.count >= 3, let bytes = Self.bytes(fromHex: text) else { return input }
            return .data(bytes)
        case .hex:
            guard case .text(let raw) = input else { return input }
            let text = raw.trimmingSpacesAndNewlines()
            if text.isEmpty { return .null }
            if let bytes = Self.bytes(fromHex: text) { return .data(bytes) }
            // Text that is no hex and does not try to be is text, as SQLite keeps it in a BLOB column
            // (a guess never blocks, docs/fidelity.md); a literal that tries and fails is refused.
            let tries = ["x'", "X'", "0x", "0X", "\\x"].contains { text.hasPrefix($0) }
            if tries { throw failure("hex", field) }
            return .text(raw)
        case .custom(let custom):
            do {
                return try custom.parse(input)
            } catch let error as FieldError {
                return try rethrowing(error, field)
            } catch {
                throw FieldError(field: field.key, code: "invalid",
                                 message: MessageCatalog.english.template(for: "invalid"))
            }
        }
    }

    /// Moves a value one step towards what is shown (model value → display).
    /// Never fails: a value a step does not understand passes through.
    public func format(_ value: FieldValue, field: Field) -> FieldValue {
        switch self {
        case .trim, .removeSpaces, .uppercase, .lowercase, .maxLength, .digitsOnly:
            return value
        case .phone:
            guard case .text(let digits) = value, digits.count == 10, digits.allSatisfy(\.isASCIIDigit) else { return value }
            let d = Array(digits)
            return .text("(\(String(d[0..<3]))) \(String(d[3..<6]))-\(String(d[6..<10]))")
        case .integer:
            if case .int(let i) = value { return .text(String(i)) }
            return value
        case .decimal:
            if case .double(let d) = value { return .text(Transform.decimalText(d)) }
            if case .int(let i) = value { return .text(String(i)) }
            return value
        case .date(let format):
            if case .date(let date) = value { return .text(DateText.format(date, format: format)) }
            return value
        case .yesNo:
            if case .bool(let b) = value { return .text(b ? "yes" : "no") }
            return value
        case .choiceLabel:
            if case .list(let items) = value { return .list(items.map { format($0, field: field) }) }
            if let choice = field.choices.first(where: { $0.value == value }) { return .text(choice.label) }
            return value
        case .list:
            if case .list(let items) = value { return .text(items.map(FieldValue.plainText).joined(separator: ", ")) }
            return value
        case .hex, .blobLiteral:
            guard case .data(let bytes) = value else { return value }
            return .text(bytes.blobLiteral)
        case .custom(let custom):
            return custom.format(value)
        }
    }

    /// The bytes of `x'CAFE'`, `X'CAFE'`, `\xCAFE`, `0xCAFE` or `CAFE`; `nil` for anything else.
    static func bytes(fromHex text: String) -> Data? {
        var digits = Substring(text)
        if (digits.hasPrefix("x'") || digits.hasPrefix("X'")) && digits.hasSuffix("'") && digits.count >= 3 {
            digits = digits.dropFirst(2).dropLast()
        } else if digits.hasPrefix("\\x") || digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            digits = digits.dropFirst(2)
        }
        let nibbles = digits.utf8.map(HexDigit.value)
        guard nibbles.count % 2 == 0, !nibbles.contains(nil) else { return nil }
        var bytes = Data(capacity: nibbles.count / 2)
        var index = 0
        while index < nibbles.count {
            bytes.append(nibbles[index]! << 4 | nibbles[index + 1]!)
            index += 2
        }
        return bytes
    }

    /// Locale-independent decimal text: `3`, `2.5`, `-0.125`, `0.0000000001`
    /// (the shortest digits that read back as the number, without an
    /// exponent where it takes up to 24 places; a person reads `1e-10` as
    /// a word).
    static func decimalText(_ d: Double) -> String {
        // A non-finite value by the name it is typed, exported and imported as (not Swift's `inf`).
        if let name = ValueBytes.nonFiniteName(d) { return name }
        if d.rounded() == d, abs(d) < 1e15 { return String(Int64(d)) }
        return withoutExponent(String(d))
    }

    /// `1.25e-07` as `0.000000125`, `1e+16` as `10000000000000000`: the
    /// same digits, the point moved; an exponent past ±24 is kept.
    static func withoutExponent(_ text: String) -> String {
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }), let exponent = Int(text[text.index(after: e)...]),
              abs(exponent) <= 24 else { return text }
        var mantissa = text[..<e]
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa = mantissa.dropFirst() }
        let point = mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count
        var digits = String(mantissa.filter { $0 != "." })
        let at = point + exponent
        if at <= 0 {
            digits = "0." + String(repeating: "0", count: -at) + digits
        } else if at >= digits.count {
            digits += String(repeating: "0", count: at - digits.count)
        } else {
            digits.insert(".", at: digits.index(digits.startIndex, offsetBy: at))
        }
        // `1.50e-05`'s digits end in a zero only where they hold one; a trailing `.0` is none.
        if digits.contains("."), digits.hasSuffix(".0") { digits.removeLast(2) }
        return (negative ? "-" : "") + digits
    }

    private func mapText(_ value: FieldValue, _ body: (String) -> String) -> FieldValue {
        if case .text(let s) = value { return .text(body(s)) }
        return value
    }

    private func failure(_ code: String, _ field: Field, variant: String? = nil) -> FieldError {
        FieldError(field: field.key, code: code, message: MessageCatalog.english.template(for: variant ?? code))
    }

    private func rethrowing(_ error: FieldError, _ field: Field) throws(FieldError) -> FieldValue {
        var error = error
        error.field = field.key
        throw error
    }

    /// A choice from its value or its label (case-insensitive), never its
    /// position (see `Field.choice(matching:)`).
    private static func choice(for input: FieldValue, in field: Field) throws(FieldError) -> FieldValue {
        if case .text(let raw) = input, String.trimmingWhitespaceAndNewlines(raw).isEmpty { return .null }
        // Nothing chosen (a multichoice's list step gives nothing for empty input).
        if case .null = input { return .null }
        guard !field.choices.isEmpty else { return input }
        if let choice = field.choice(matching: input) { return choice.value }
        // A secure field's typed text is never echoed (issue 20): the message names the field only.
        guard case .text(let raw) = input, !field.isSecure else {
            throw FieldError(field: field.key, code: "choice", message: MessageCatalog.english.template(for: "choice"))
        }
        // Name what was typed: in a list of several, which one is wrong is the useful part.
        let text = String.trimmingWhitespaceAndNewlines(raw)
        let message = MessageCatalog.fill(MessageCatalog.english.template(for: "choice.item"),
                                          with: ["value": "\"\(text)\"", "label": "{label}"])
        throw FieldError(field: field.key, code: "choice", message: message)
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension String {
    /// `trimmingSpacesAndNewlines()`, without building a new string when there
    /// is nothing to trim (the usual case, and the one every keystroke and
    /// imported value takes).
    static func trimmingWhitespaceAndNewlines(_ text: String) -> String {
        // Printable ASCII is never white space; anything else is looked at.
        func isPrintableASCII(_ byte: UInt8?) -> Bool { byte.map { $0 > 0x20 && $0 < 0x7F } ?? false }
        if isPrintableASCII(text.utf8.first) && isPrintableASCII(text.utf8.last) { return text }
        return text.trimmingSpacesAndNewlines()
    }
}
