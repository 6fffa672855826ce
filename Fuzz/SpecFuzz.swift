// libFuzzer entry: the JSON form spec parser (FormSpec.decode). A spec that
// decodes must encode and decode again to the same form. Built by Scripts/fuzz.sh.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSpec(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    guard let form = try? FormSpec.decode(data) else { return 0 }
    let again = try? FormSpec.decode(FormSpec.encode(form))
    if again != form { fatalError("a decoded spec does not survive encode and decode") }
    return 0
}
