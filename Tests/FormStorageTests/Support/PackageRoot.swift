import Foundation

/// The package's root folder, found from this source file's path
/// (Tests/FormStorageTests/Support/PackageRoot.swift), whatever the working directory.
let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Support
    .deletingLastPathComponent()  // FormStorageTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()
