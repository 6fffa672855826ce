#ifndef FORMSTORE_CLIBPQ_H
#define FORMSTORE_CLIBPQ_H

/* libpq's own declarations. `formstore` does not link libpq: LibPQ.c defines
   each function FormStore calls under its own name and forwards it to the
   library, opened with dlopen the first time it is needed (docs/binary.md).
   Only a PostgreSQL URL needs it, so no other command pays for libpq and its
   dependency chain (libssl, libcrypto, krb5, ldap ...) at start-up. */
#include <postgresql/libpq-fe.h>

/* Opens libpq (once; later calls return the first answer). NULL when it is
   loaded, else the loader's reason (a static string). The file opened is
   libpq.so.5, or the one FORMSTORE_LIBPQ names (the tests name a missing one).
   Call it before the first PQconnectdb: a function called while the library
   is missing writes the reason to stderr and aborts. */
const char *formstore_pq_load(void);

// PG_DIAG_* are character-literal macros Swift does not import.
static inline const char *formstore_pq_sqlstate(const PGresult *result) {
    return PQresultErrorField(result, PG_DIAG_SQLSTATE);
}

static inline const char *formstore_pq_primary_message(const PGresult *result) {
    return PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY);
}

static inline const char *formstore_pq_constraint(const PGresult *result) {
    return PQresultErrorField(result, PG_DIAG_CONSTRAINT_NAME);
}

#endif
