import FoundationEssentials
import Glibc

/// The environment variables a command reads: the process's own, each read
/// with `getenv` when asked, or a fixed dictionary (tests, `CommandLineTool.run(_:environment:…)`).
///
/// Not `ProcessInfo.environment` for the process: that builds the whole
/// environment as a dictionary, about 0.6 M instructions of every command's
/// start (docs/binary.md), for the few variables a command looks at. Only a
/// child process (the editor) is given every variable, through `all`.
struct Environment: ExpressibleByDictionaryLiteral {
    /// The variables, when they are not the process's own.
    private let fixed: [String: String]?

    /// The process's own environment.
    static let process = Environment(fixed: nil)

    init(_ variables: [String: String]) {
        fixed = variables
    }

    init(dictionaryLiteral elements: (String, String)...) {
        fixed = Dictionary(elements, uniquingKeysWith: { _, last in last })
    }

    private init(fixed: [String: String]?) {
        self.fixed = fixed
    }

    subscript(name: String) -> String? {
        guard let fixed else { return getenv(name).map { String(cString: $0) } }
        return fixed[name]
    }

    /// Every variable, for a child process's environment.
    var all: [String: String] {
        fixed ?? ProcessInfo.processInfo.environment
    }

    /// Only `names`, those that are set: what `Terminal` reads.
    func only(_ names: [String]) -> [String: String] {
        var found: [String: String] = [:]
        for name in names { found[name] = self[name] }
        return found
    }
}
