import FormBasics
import FormCore
import FoundationEssentials

/// Asks for field values one line at a time, on a terminal or from lines on
/// stdin. It only asks and reads; the editing session checks the answers.
///
/// ```
/// Colour [red]:
///   1) red
///   2) green
/// > 2
/// ```
///
/// End of input returns nil: the caller keeps a draft and says how to resume.
final class Prompter {
    /// What was answered for a field.
    enum Answer: Hashable {
        /// Enter on an empty line: the current value stays.
        case keep
        /// The text typed (for a numbered choice, the choice's value).
        case value(String)
    }

    private let input: any LineSource
    private let output: any TextSink

    init(input: any LineSource, output: any TextSink) {
        self.input = input
        self.output = output
    }

    /// Asks for `field`, showing `current` (a display text) in brackets.
    ///
    /// - parameter error: why the previous answer was refused; shown first.
    /// - parameter referred: what a foreign key's current value refers to (`(AC/DC)`), after the value.
    func ask(_ field: Field, current: String?, referred: String? = nil, error: String? = nil) -> Answer? {
        if let error { output.write("  ! \(error)\n") }
        var prompt = field.label
        if field.wantsValue { prompt += " (required)" }
        if field.isSecure {
            if let current, !current.isEmpty { prompt += " [\(ValueText.mask)]" }
        } else if let current, !current.isEmpty {
            // Written as an answer is read (`ValueEscapes`): a line break `\n`, a backslash `\\`.
            prompt += " [\(ValueEscapes.escaped(current))]"
            if let referred { prompt += " " + TerminalText.neutralised(referred) }
        }
        let choices = field.choices.filter { !$0.isDisabled }
        var text = prompt + ":"
        if !choices.isEmpty {
            text += "\n"
            for (i, choice) in choices.enumerated() { text += "  \(i + 1)) \(choice.label)\n" }
            text += field.kind == .multichoice ? "Numbers or labels, separated by commas: " : "Number or label: "
        } else {
            if let hint = field.hint { text += " (\(hint))" }
            if !field.suggestions.isEmpty { text += "\n  suggestions: \(field.suggestions.joined(separator: ", "))\n>" }
            text += " "
        }
        output.write(text)
        output.flush()

        guard let line = input.readLine(echo: !field.isSecure) else { return nil }
        if line.isEmpty { return .keep }
        guard !choices.isEmpty else { return .value(line) }
        if field.kind == .multichoice {
            let parts = line.split(separator: ",").map { $0.trimmingSpaces() }
            return .value(parts.map { Prompter.choiceText($0, choices, of: field) }.joined(separator: ", "))
        }
        return .value(Prompter.choiceText(line.trimmingSpaces(), choices, of: field))
    }

    /// Said once before the first field: how to keep, clear, or give NULL or empty text.
    static let inputHelp = #"Enter keeps a value; a space clears it; \N is no value (NULL), "" is empty text; "#
        + #"\n is a line break, \t a tab, \\ a backslash."#

    /// What an answer gives: `\N` is NULL, `""` empty text, anything else
    /// typed text; `readingEscapes` (the prompts, whose brackets write a value
    /// so) reads its escapes (`\n` a line break: `ValueEscapes`). The
    /// full-screen form edits the value itself, its backslashes as they are.
    static func fieldInput(_ answer: String, readingEscapes: Bool) -> FieldInput {
        switch answer.trimmingSpaces() {
        case #"\N"#: return .null
        case #""""#: return .emptyText
        // Spaces alone clear the field, as the help says, even one that keeps white space (an inferred form's).
        case "": return .typed("")
        default: return .typed(readingEscapes ? ValueEscapes.unescaped(answer[...]) : answer)
        }
    }

    /// Asks a yes/no question; Enter takes `defaultAnswer`; nil at the end of input.
    func confirm(_ question: String, default defaultAnswer: Bool) -> Bool? {
        while true {
            output.write("\(question) \(defaultAnswer ? "[Y/n]" : "[y/N]") ")
            output.flush()
            guard let line = input.readLine(echo: true) else { return nil }
            switch line.trimmingSpaces().lowercased() {
            case "": return defaultAnswer
            case "y", "yes": return true
            case "n", "no": return false
            default: output.write("  Please answer yes or no.\n")
            }
        }
    }

    /// Asks `question` and returns the line typed, trimmed; nil at the end of input.
    func line(_ question: String) -> String? {
        output.write(question + " ")
        output.flush()
        return input.readLine(echo: true)?.trimmingSpaces()
    }

    /// Writes a line for the person (a summary, a warning).
    func say(_ message: String) {
        output.write(message + "\n")
    }

    /// A choice's value or label typed as is (the session matches it), or a
    /// choice's number in the menu, turned into that choice's value. A number is
    /// a position only where no choice's value or label is that text: with
    /// choices `0, 1, 2, 5`, `2` is the value 2, never the third choice.
    private static func choiceText(_ typed: String, _ choices: [Choice], of field: Field) -> String {
        if field.choice(matching: .text(typed)) != nil { return typed }
        if let n = Int(typed), (1...choices.count).contains(n) { return choices[n - 1].valueText }
        return typed
    }
}

@available(*, unavailable)
extension Prompter: Sendable {}
