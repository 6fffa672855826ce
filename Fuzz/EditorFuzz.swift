// libFuzzer entry: the editor document parser (EditorDocument, internal to
// FormStoreCLI, compiled here with its few dependencies). Any document parses
// or fails with EditorDocumentError; a value encoded for the document decodes
// back to itself. Built by Scripts/fuzz.sh.
import Foundation

let editedForm: Form = {
    var secret = Field(key: "password", kind: .password)
    secret.isSecure = true
    var fixed = Field(key: "id", kind: .integer)
    fixed.isReadOnly = true
    return Form(name: "people", sections: [Section(fields: [
        fixed, Field(key: "name"), Field(key: "age", kind: .integer), Field(key: "my key: \"odd\""), secret,
        Field(key: "note", kind: .multiline),
    ])])
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEditorDocument(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    do {
        _ = try EditorDocument.parse(text, form: editedForm)
    } catch is EditorDocumentError {
    } catch {
        fatalError("EditorDocument.parse threw \(error)")
    }
    // The whole input as one field's value: rendered, then read back unchanged.
    let document = EditorDocument.render(form: editedForm, values: ["note": text, "my key: \"odd\"": text])
    guard let values = try? EditorDocument.parse(document, form: editedForm) else {
        fatalError("a rendered document does not parse")
    }
    if values["note"] != text || values["my key: \"odd\""] != text {
        fatalError("a value does not survive the document: \(text.debugDescription)")
    }
    return 0
}
