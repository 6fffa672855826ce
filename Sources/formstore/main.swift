import FormStoreCLI
import FoundationEssentials

exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
