import FormStorage
import FormStoreCLI
import Glibc

// The command owns its process, so it may set SQLite up for it: SQLite's
// memory statistics, which nothing here reads, took a mutex per allocation.
SQLiteLibrary.turnOffMemoryStatistics()
exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
