import Foundation

/// The package's root folder, found from this source file's path
/// (Tests/FormStoreTestSupport/PackageRoot.swift), whatever the working directory.
public let packageRoot: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // FormStoreTestSupport
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()
    .path
