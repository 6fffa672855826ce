import FormCore

/// `FIELD=@-` (stdin) and `FIELD=@path` (a file) for a secure field or a
/// BLOB field. A password on the command line is visible to every user of the
/// machine in `/proc/PID/cmdline` and `ps` while the command runs (issue 20);
/// read from stdin or a file, it is not. A BLOB takes the file's bytes.
///
/// Only those fields read files: for any other field `@` is text as typed
/// (`handle=@ann`). A secret that starts with `@` is given with `:=`
/// (`password:="@x"`), which is never read from a file.
extension FieldInput {
    /// What `FIELD=@…` names: `@-` for stdin, else a path.
    private var fileReference: String? {
        guard case .typed(let text) = self, text.hasPrefix("@"), text.count > 1 else { return nil }
        return String(text.dropFirst())
    }

    /// `inputs` with each `@-` / `@path` of a secure or BLOB field of `form`
    /// replaced by what it names: a secure field's text without one trailing
    /// line break (as `echo` or a password file ends), a BLOB's bytes.
    ///
    /// - parameter literal: the fields given with `:=`, taken as they are.
    /// - throws: `CLIError.notFound` for a file that cannot be opened,
    ///   `CLIError.usage` for `@-` given twice or a secret that is not UTF-8.
    static func readingFiles(_ inputs: [String: FieldInput], literal: Set<String>, of form: Form,
                             stdin: any ByteSource) throws -> [String: FieldInput] {
        var result = inputs
        var stdinUsedBy: String?
        for (key, input) in inputs.sorted(by: { $0.key < $1.key }) where !literal.contains(key) {
            guard let field = form.field(key), field.isSecure || field.transforms.contains(.hex),
                  let reference = input.fileReference else { continue }
            let bytes: [UInt8]
            if reference == "-" {
                if let other = stdinUsedBy {
                    throw CLIError.usage("Only one field can be read from stdin (@-): \(other) and \(key)")
                }
                stdinUsedBy = key
                bytes = try readAll(stdin)
            } else {
                bytes = try readAll(try FileDescriptorSource(path: reference))
            }
            if field.transforms.contains(.hex) && !field.isSecure {
                result[key] = .typed("\\x" + bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined())
                continue
            }
            guard var text = String(validating: bytes, as: UTF8.self) else {
                throw CLIError.usage("\(key)=@\(reference): the secret is not UTF-8 text")
            }
            if text.hasSuffix("\r\n") { text.removeLast() } else if text.hasSuffix("\n") { text.removeLast() }
            result[key] = .typed(text)
        }
        return result
    }

    static func readAll(_ source: any ByteSource) throws -> [UInt8] {
        var bytes: [UInt8] = []
        while case let chunk = try source.read(upTo: 64 * 1024), !chunk.isEmpty { bytes += chunk }
        return bytes
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
