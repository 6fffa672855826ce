import Foundation

/// The `formstore` command: parses `arguments` (without the program name),
/// runs the command and returns the exit code.
public enum CommandLineTool {
    public static func run(_ arguments: [String]) -> Int32 {
        if arguments.isEmpty || arguments == ["--help"] || arguments == ["-h"] {
            print("OVERVIEW: Edit rows of any SQLite database through forms.")
            return 0
        }
        FileHandle.standardError.write(Data("Error: unknown command '\(arguments[0])'\n".utf8))
        return 64
    }
}
