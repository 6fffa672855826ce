#ifndef FORMSTORE_CLIBPQ_SHIM_H
#define FORMSTORE_CLIBPQ_SHIM_H

#include <libpq-fe.h>

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
