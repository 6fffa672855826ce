// libFuzzer entry: the value transformers. The input, as text, is parsed by a
// field of every kind and by fields with each extra transform; what parses is
// formatted, and the formatted text must parse again. Built by Scripts/fuzz.sh.
import Foundation

let fuzzedFields: [Field] = {
    var fields = FieldKind.allCases.map { kind -> Field in
        var field = Field(key: "f", kind: kind)
        if kind == .choice || kind == .multichoice {
            field.choices = [Choice(.text("usa"), label: "United States"), Choice(.text("de"), label: "Germany"),
                             Choice(.int(3), label: "Three"), Choice(.text("x"), disabled: true)]
        }
        return field
    }
    let extra: [Transform] = [.trim, .removeSpaces, .uppercase, .lowercase, .maxLength(5), .digitsOnly, .phone,
                              .integer, .decimal, .date(format: "dd.MM.yyyy"), .choiceLabel, .yesNo, .list]
    for transform in extra {
        var field = Field(key: "t", kind: .text)
        field.transforms = [transform]
        fields.append(field)
    }
    return fields
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTransforms(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    for field in fuzzedFields {
        guard case .success(let value) = field.parse(input) else { continue }
        let shown = field.format(value)
        _ = field.parse(shown)
        _ = field.parse(value: value)
    }
    return 0
}
