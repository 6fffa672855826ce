#include "CMicroHTTPD.h"

#include <CSharedLibrary.h>
#include <string.h>

/* Each libmicrohttpd function FormStore calls, forwarded to the library
   opened on first use (CMicroHTTPD.h). A function FormStore starts calling is
   added here; the link fails until it is. */
static struct formstore_library microhttpd = FORMSTORE_LIBRARY("libmicrohttpd.so.12", "FORMSTORE_LIBMICROHTTPD");

const char *formstore_mhd_load(void) { return formstore_library_open(&microhttpd); }

FORMSTORE_FORWARD_VOID(microhttpd, MHD_stop_daemon, (struct MHD_Daemon *daemon), (daemon))
FORMSTORE_FORWARD(microhttpd, int, MHD_get_connection_values,
                  (struct MHD_Connection *connection, enum MHD_ValueKind kind, MHD_KeyValueIterator iterator,
                   void *iterator_cls),
                  (connection, kind, iterator, iterator_cls))
FORMSTORE_FORWARD(microhttpd, const char *, MHD_lookup_connection_value,
                  (struct MHD_Connection *connection, enum MHD_ValueKind kind, const char *key),
                  (connection, kind, key))
FORMSTORE_FORWARD(microhttpd, enum MHD_Result, MHD_queue_response,
                  (struct MHD_Connection *connection, unsigned int status_code, struct MHD_Response *response),
                  (connection, status_code, response))
FORMSTORE_FORWARD(microhttpd, struct MHD_Response *, MHD_create_response_from_callback,
                  (uint64_t size, size_t block_size, MHD_ContentReaderCallback crc, void *crc_cls,
                   MHD_ContentReaderFreeCallback crfc),
                  (size, block_size, crc, crc_cls, crfc))
FORMSTORE_FORWARD(microhttpd, struct MHD_Response *, MHD_create_response_from_buffer,
                  (size_t size, void *buffer, enum MHD_ResponseMemoryMode mode), (size, buffer, mode))
FORMSTORE_FORWARD_VOID(microhttpd, MHD_destroy_response, (struct MHD_Response *response), (response))
FORMSTORE_FORWARD(microhttpd, enum MHD_Result, MHD_add_response_header,
                  (struct MHD_Response *response, const char *header, const char *content),
                  (response, header, content))

static size_t keep_escaped(void *context, struct MHD_Connection *connection, char *text) {
    (void)context;
    (void)connection;
    return strlen(text);
}

struct MHD_Daemon *formstore_mhd_start(const struct sockaddr_in *address,
                                       unsigned int connectionLimit,
                                       unsigned int perClientLimit,
                                       unsigned int timeoutSeconds,
                                       size_t memoryLimit,
                                       MHD_AccessHandlerCallback handler, void *handlerContext,
                                       MHD_RequestCompletedCallback completed, void *completedContext) {
    struct MHD_Daemon *(*start)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *,
                                MHD_AccessHandlerCallback, void *, ...) =
        (struct MHD_Daemon *(*)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *,
                                MHD_AccessHandlerCallback, void *, ...))formstore_library_function(&microhttpd, "MHD_start_daemon");
    return start(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION,
                 ntohs(address->sin_port), NULL, NULL, handler, handlerContext,
                 MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)address,
                 MHD_OPTION_CONNECTION_LIMIT, connectionLimit,
                 MHD_OPTION_PER_IP_CONNECTION_LIMIT, perClientLimit,
                 MHD_OPTION_CONNECTION_TIMEOUT, timeoutSeconds,
                 MHD_OPTION_CONNECTION_MEMORY_LIMIT, memoryLimit,
                 MHD_OPTION_NOTIFY_COMPLETED, completed, completedContext,
                 MHD_OPTION_UNESCAPE_CALLBACK, keep_escaped, NULL,
                 MHD_OPTION_END);
}

uint16_t formstore_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *(*info)(struct MHD_Daemon *, enum MHD_DaemonInfoType, ...) =
        (const union MHD_DaemonInfo *(*)(struct MHD_Daemon *, enum MHD_DaemonInfoType, ...))
            formstore_library_function(&microhttpd, "MHD_get_daemon_info");
    const union MHD_DaemonInfo *answer = info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return answer == NULL ? 0 : answer->port;
}
