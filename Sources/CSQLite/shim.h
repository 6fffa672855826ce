#ifndef FORMSTORE_CSQLITE_SHIM_H
#define FORMSTORE_CSQLITE_SHIM_H

#include <sqlite3.h>

// Swift cannot call C variadic functions; these wrap the ones FormStore needs.

static inline int formstore_sqlite3_db_config_defensive(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, on, (int *)0);
}

static inline int formstore_sqlite3_db_config_trusted_schema(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, on, (int *)0);
}

static inline int formstore_sqlite3_db_config_load_extension(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, on, (int *)0);
}

// Process-wide, before SQLite is initialized: whether SQLite counts the memory
// it allocates (sqlite3_memory_used, the soft heap limit). Counting takes a
// global mutex on every allocation, and SQLite allocates per text column read.
static inline int formstore_sqlite3_config_memstatus(int on) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on);
}

// Process-wide, before SQLite is initialized: how many page-cache lines each
// connection allocates in one go when it first reads (SQLITE_CONFIG_PAGECACHE
// with no memory of its own; 0: each page when it is first needed).
static inline int formstore_sqlite3_config_pagecache_bulk(int lines) {
    return sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, lines);
}

// SQLITE_TRANSIENT is a macro over a cast Swift cannot import.
static inline sqlite3_destructor_type formstore_sqlite3_transient(void) {
    return SQLITE_TRANSIENT;
}

// SQLITE_STATIC likewise: SQLite reads the bytes where they lie, and the caller keeps them there.
static inline sqlite3_destructor_type formstore_sqlite3_static(void) {
    return SQLITE_STATIC;
}

#endif
