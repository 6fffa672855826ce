@testable import FormStoreCLI
import Foundation
import Testing

@Suite struct HelpTests {
    @Test func topLevelHelpHasEverySectionAndExitCodes() {
        let run = runTool(["--help"])
        #expect(run.code == .success)
        #expect(run.errors.isEmpty)
        let help = run.output
        #expect(help.hasPrefix("OVERVIEW: Edit rows of any SQLite database through forms.\n"))
        #expect(help.contains("\nUSAGE: formstore [--db <path>] [--forms <dir>] [--trust-schema] <subcommand>\n"))
        #expect(help.contains("\nOPTIONS:\n  --db <path>"))
        #expect(help.contains("\n  --trust-schema          Let the database's triggers and views call functions\n"))
        #expect(help.contains("\n  --version               Show the version.\n"))
        #expect(help.contains("\n  -h, --help              Show help information.\n"))
        for name in ["init", "migrate", "forms", "form", "list", "show", "new", "set", "edit", "delete",
                     "drafts", "draft", "import", "export", "serve", "demo", "help"] {
            #expect(help.contains("\n  \(name.padding(toLength: 24, withPad: " ", startingAt: 0))"), "subcommand \(name)")
        }
        #expect(help.contains("\nEXIT CODES:\n  0                       success\n"))
        for code in ["1", "64", "65", "66", "69", "74", "75"] {
            #expect(help.contains("\n  \(code.padding(toLength: 24, withPad: " ", startingAt: 0))"), "exit code \(code)")
        }
    }

    @Test func shortFlagAndNoArgumentsShowTheSameHelp() {
        let long = runTool(["--help"]).output
        #expect(runTool(["-h"]).output == long)
        #expect(runTool([]).output == long)
        #expect(runTool(["help"]).output == long)
    }

    @Test func subcommandHelpIsTheSameThroughAllThreeRoutes() {
        let viaLong = runTool(["list", "--help"])
        let viaShort = runTool(["list", "-h"])
        let viaHelp = runTool(["help", "list"])
        for run in [viaLong, viaShort, viaHelp] {
            #expect(run.code == .success)
            #expect(run.errors.isEmpty)
        }
        #expect(viaLong.output == viaShort.output)
        #expect(viaLong.output == viaHelp.output)
        let help = viaLong.output
        #expect(help.hasPrefix("OVERVIEW: List a form's records.\n\nUSAGE: formstore list <form> [--where <condition> ...] [--search <text>] [--sort <field> ...] [--offset <n>] [--limit <n>] [--format <format>] [--show-secure] [--raw-csv]\n"))
        #expect(help.contains("\nARGUMENTS:\n  <form>                  A form spec's name, or any table's name.\n"))
        #expect(help.contains("\n  --limit <n>             At most N records.\n"))
        #expect(help.contains("--format <format>       Output format: table, json, ndjson, csv."))
        #expect(!help.contains("SUBCOMMANDS"))
    }

    @Test func nestedSubcommandHelp() {
        let viaHelp = runTool(["help", "draft", "restore"])
        #expect(viaHelp.output == runTool(["draft", "restore", "--help"]).output)
        #expect(viaHelp.output.contains(
            "USAGE: formstore draft restore (<form> <key> | <draft-id>) [--keep mine|theirs] [--keep-field <field=mine|theirs> ...]\n"))
        let group = runTool(["draft"])
        #expect(group.code == .success)
        #expect(group.output.contains("SUBCOMMANDS:\n  show"))
        #expect(group.output.contains("See 'formstore help draft <subcommand>' for detailed help."))
    }

    @Test func helpForAnUnknownCommandIsAUsageError() {
        let run = runTool(["help", "lsit"])
        #expect(run.code == .usage)
        #expect(run.errors.hasPrefix("Error: Unknown command 'lsit'. Did you mean 'list'?\nUsage: formstore help"))
    }

    @Test func helpIsGivenEvenWhenArgumentsAreMissing() {
        let run = runTool(["set", "--help"])
        #expect(run.code == .success)
        #expect(run.output.contains("USAGE: formstore set <form> <key> [<field=value> ...] [--json] [--children]"))
    }

    @Test func versionPrintsTheVersion() {
        let run = runTool(["--version"])
        #expect(run.code == .success)
        #expect(run.output == CommandLineTool.version + "\n")
    }

    @Test func longHelpTextWrapsUnderItsColumn() {
        for line in runTool(["--help"]).output.split(separator: "\n") {
            #expect(line.count <= 80, "too long: \(line)")
        }
    }
}
