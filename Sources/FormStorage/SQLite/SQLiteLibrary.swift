internal import CSQLite

/// Settings of the SQLite library for the whole process. They belong to the
/// program that owns the process (the `formstore` command), not to a library
/// embedded in a host that may use SQLite for its own ends, so FormStore's
/// stores never make them on their own.
public enum SQLiteLibrary {
    /// The linked SQLite's version as a number: 3040001 for 3.40.1.
    public static var versionNumber: Int { Int(sqlite3_libversion_number()) }

    /// Turns off SQLite's memory statistics (`SQLITE_CONFIG_MEMSTATUS`),
    /// which take a process-wide mutex on every allocation SQLite makes, and
    /// it makes one for each text column of each row it reads. Without them
    /// `sqlite3_memory_used` reads 0 and a soft heap limit is not enforced;
    /// nothing in FormStore uses either.
    ///
    /// Must come before the first connection is opened (SQLite takes
    /// configuration only before it is initialized); returns whether SQLite
    /// took it.
    ///
    /// ```swift
    /// SQLiteLibrary.turnOffMemoryStatistics()   // first thing in main
    /// ```
    @discardableResult
    public static func turnOffMemoryStatistics() -> Bool {
        formstore_sqlite3_config_memstatus(0) == SQLITE_OK
    }

    /// Has each connection allocate its page cache a page at a time, as it
    /// reads, instead of 20 pages (~88 KB) in one block the first time it
    /// reads, written through at once (SQLite's `SQLITE_DEFAULT_PCACHE_INITSZ`).
    /// A short process that reads a few pages (`formstore show`) then
    /// touches only those: the block cost it 19 page faults of ~430. A
    /// long one allocates the same pages one by one, once.
    ///
    /// Like `turnOffMemoryStatistics()`, it must come before the first
    /// connection is opened; returns whether SQLite took it.
    @discardableResult
    public static func allocatePagesOnDemand() -> Bool {
        formstore_sqlite3_config_pagecache_bulk(0) == SQLITE_OK
    }
}
