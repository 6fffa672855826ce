import FormStoreTestSupport
import Foundation
import Testing

/// Runs the built `formstore` executable, as a user or a script would.
@Suite struct BinaryTests {
    /// `.build/<triple>/debug/formstore`, beside the test bundle; or `$FORMSTORE_BINARY`.
    private func run(_ arguments: [String]) throws -> (code: Int32, output: String, errors: String) {
        let path = try formstoreBinary()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    @Test func helpGoesToStdoutAndExitsZero() throws {
        let result = try run(["--help"])
        #expect(result.code == 0)
        #expect(result.output.hasPrefix("OVERVIEW: "))
        #expect(result.output.contains("EXIT CODES:"))
        #expect(result.errors.isEmpty)
    }

    @Test func unknownCommandIsAUsageErrorOnStderr() throws {
        let result = try run(["lsit"])
        #expect(result.code == 64)
        #expect(result.output.isEmpty)
        #expect(result.errors.hasPrefix("Error: Unknown command 'lsit'. Did you mean 'list'?\nUsage: formstore "))
    }

    @Test func badLimitExits64() throws {
        let result = try run(["list", "people", "--limit", "0"])
        #expect(result.code == 64)
        #expect(result.errors.hasPrefix("Error: The value '0' is invalid for '--limit <n>'"))
    }
}
