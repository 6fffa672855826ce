import FormStoreTestSupport
import Foundation
import Testing

/// The README's tour of the `formstore` command, run as written on the demo it
/// starts from: every command there must work, not only the first.
@Suite struct ReadmeCommandTests {
    /// The lines of the README's `## The \`formstore\` command` block: each command
    /// with its continuation lines, comments stripped.
    static func commands() throws -> [String] {
        let readme = try String(contentsOfFile: packageRoot + "/README.md", encoding: .utf8)
        let heading = try #require(readme.range(of: "## The `formstore` command"))
        let open = try #require(readme.range(of: "```sh\n", range: heading.upperBound..<readme.endIndex))
        let close = try #require(readme.range(of: "```", range: open.upperBound..<readme.endIndex))
        var commands: [String] = []
        for line in readme[open.upperBound..<close.lowerBound].split(separator: "\n") {
            // A comment starts at `   # ` (commands hold no such run of text).
            let command = line.range(of: "  # ").map { String(line[..<$0.lowerBound]) } ?? String(line)
            let trimmed = command.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix(" "), let last = commands.popLast() { commands.append(last + "\n" + trimmed) } else { commands.append(trimmed) }
        }
        return commands
    }

    @Test func everyCommandOfTheTourWorksOnTheDemo() throws {
        let scratch = try TemporaryDirectory()
        let binary = try formstoreBinary()
        var ran = 0
        for command in try Self.commands() {
            // Interactive ones (a terminal, a server) and a change id the tour cannot know are left out;
            // `delete` asks on a terminal, so here it is told yes.
            if ["formstore edit", "formstore serve", "formstore revert"].contains(where: command.hasPrefix) { continue }
            let line = (command.hasPrefix("formstore delete") ? command + " --yes" : command)
                .replacingOccurrences(of: "formstore ", with: "'\(binary)' ")
            let run = try runProcess("/bin/sh", ["-c", "cd '\(scratch.path)' && export FORMSTORE_DB=formstore-demo.sqlite && " + line])
            #expect(run.code == 0, "\(command): \(run)")
            ran += 1
        }
        #expect(ran >= 20)
    }
}
