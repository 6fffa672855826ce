#include "CLibPQ.h"

#include <CSharedLibrary.h>

/* Each libpq function FormStore calls, forwarded to the library opened on
   first use (CLibPQ.h). A function FormStore starts calling is added here;
   the link fails until it is. */
static struct formstore_library libpq = FORMSTORE_LIBRARY("libpq.so.5", "FORMSTORE_LIBPQ");

const char *formstore_pq_load(void) { return formstore_library_open(&libpq); }

/* Connections */
FORMSTORE_FORWARD(libpq, PGconn *, PQconnectdb, (const char *conninfo), (conninfo))
FORMSTORE_FORWARD_VOID(libpq, PQfinish, (PGconn *conn), (conn))
FORMSTORE_FORWARD(libpq, ConnStatusType, PQstatus, (const PGconn *conn), (conn))
FORMSTORE_FORWARD(libpq, PGTransactionStatusType, PQtransactionStatus, (const PGconn *conn), (conn))
FORMSTORE_FORWARD(libpq, char *, PQerrorMessage, (const PGconn *conn), (conn))
FORMSTORE_FORWARD(libpq, int, PQsocket, (const PGconn *conn), (conn))
FORMSTORE_FORWARD(libpq, int, PQbackendPID, (const PGconn *conn), (conn))
FORMSTORE_FORWARD(libpq, PQnoticeProcessor, PQsetNoticeProcessor,
                  (PGconn *conn, PQnoticeProcessor proc, void *arg), (conn, proc, arg))
FORMSTORE_FORWARD(libpq, PGcancel *, PQgetCancel, (PGconn *conn), (conn))
FORMSTORE_FORWARD_VOID(libpq, PQfreeCancel, (PGcancel *cancel), (cancel))
FORMSTORE_FORWARD(libpq, int, PQcancel, (PGcancel *cancel, char *errbuf, int errbufsize), (cancel, errbuf, errbufsize))

/* Statements */
FORMSTORE_FORWARD(libpq, PGresult *, PQexec, (PGconn *conn, const char *query), (conn, query))
FORMSTORE_FORWARD(libpq, PGresult *, PQexecParams,
                  (PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
                   const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat),
                  (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat))
FORMSTORE_FORWARD(libpq, PGresult *, PQprepare,
                  (PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes),
                  (conn, stmtName, query, nParams, paramTypes))
FORMSTORE_FORWARD(libpq, PGresult *, PQexecPrepared,
                  (PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues,
                   const int *paramLengths, const int *paramFormats, int resultFormat),
                  (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat))
FORMSTORE_FORWARD(libpq, int, PQsendQueryParams,
                  (PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
                   const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat),
                  (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat))
FORMSTORE_FORWARD(libpq, int, PQsendQueryPrepared,
                  (PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues,
                   const int *paramLengths, const int *paramFormats, int resultFormat),
                  (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat))
FORMSTORE_FORWARD(libpq, int, PQsetSingleRowMode, (PGconn *conn), (conn))
FORMSTORE_FORWARD(libpq, PGresult *, PQgetResult, (PGconn *conn), (conn))
FORMSTORE_FORWARD(libpq, int, PQconsumeInput, (PGconn *conn), (conn))
FORMSTORE_FORWARD(libpq, PGnotify *, PQnotifies, (PGconn *conn), (conn))
FORMSTORE_FORWARD(libpq, int, PQenterPipelineMode, (PGconn *conn), (conn))
FORMSTORE_FORWARD(libpq, int, PQexitPipelineMode, (PGconn *conn), (conn))
FORMSTORE_FORWARD(libpq, int, PQpipelineSync, (PGconn *conn), (conn))

/* Results */
FORMSTORE_FORWARD(libpq, ExecStatusType, PQresultStatus, (const PGresult *res), (res))
FORMSTORE_FORWARD(libpq, char *, PQresultErrorField, (const PGresult *res, int fieldcode), (res, fieldcode))
FORMSTORE_FORWARD(libpq, int, PQntuples, (const PGresult *res), (res))
FORMSTORE_FORWARD(libpq, int, PQnfields, (const PGresult *res), (res))
FORMSTORE_FORWARD(libpq, char *, PQfname, (const PGresult *res, int field_num), (res, field_num))
FORMSTORE_FORWARD(libpq, Oid, PQftype, (const PGresult *res, int field_num), (res, field_num))
FORMSTORE_FORWARD(libpq, char *, PQgetvalue, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num))
FORMSTORE_FORWARD(libpq, int, PQgetisnull, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num))
FORMSTORE_FORWARD(libpq, char *, PQcmdTuples, (PGresult *res), (res))
FORMSTORE_FORWARD_VOID(libpq, PQclear, (PGresult *res), (res))
FORMSTORE_FORWARD_VOID(libpq, PQfreemem, (void *ptr), (ptr))
