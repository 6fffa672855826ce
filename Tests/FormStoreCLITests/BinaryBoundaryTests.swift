import FormStoreTestSupport
import Foundation
import Testing

/// The command is built on FoundationEssentials (docs/binary.md): the binary
/// names neither full Foundation's libraries nor ICU's data, linked
/// dynamically (a debug build) or statically (the release build).
@Suite struct BinaryBoundaryTests {
    @Test func formstoreLinksNeitherFoundationNorICU() throws {
        let path = try formstoreBinary()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for marker in ["libFoundation.so", "libFoundationInternationalization", "lib_FoundationICU", "icudt"] {
            #expect(bytes.firstRange(of: Data(marker.utf8)) == nil, "\(path) holds \(marker)")
        }
    }
}
