import FormStorage
import FormStoreCLI
import Glibc

// The command owns its process, so it may set SQLite up for it: SQLite's
// memory statistics, which nothing here reads, took a mutex per allocation;
// and a page cache allocated (and written through) 20 pages at a time, where
// most commands read a few.
SQLiteLibrary.turnOffMemoryStatistics()
SQLiteLibrary.allocatePagesOnDemand()
exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
