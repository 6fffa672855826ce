#ifndef FORMSTORE_CMICROHTTPD_SHIM_H
#define FORMSTORE_CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>
#include <string.h>

/* Swift cannot call variadic C functions: these wrap the ones FormStore uses. */

/* Leaves the path and query as sent (percent-encoded): a key holding '/'
   must stay one segment, so the server decodes each segment itself. */
static inline size_t formstore_mhd_keep_escaped(void *context, struct MHD_Connection *connection, char *text) {
    (void)context;
    (void)connection;
    return strlen(text);
}

/* Starts a daemon with a thread per connection (a server-sent events stream
   may wait in its own thread) on `address` (IPv4), with FormStore's limits:
   connections in all and per client, seconds a connection may stay idle,
   and the memory a connection's headers may take (larger requests get 431). */
static inline struct MHD_Daemon *formstore_mhd_start(const struct sockaddr_in *address,
                                                     unsigned int connectionLimit,
                                                     unsigned int perClientLimit,
                                                     unsigned int timeoutSeconds,
                                                     size_t memoryLimit,
                                                     MHD_AccessHandlerCallback handler, void *handlerContext,
                                                     MHD_RequestCompletedCallback completed, void *completedContext) {
    return MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION,
                            ntohs(address->sin_port), NULL, NULL, handler, handlerContext,
                            MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)address,
                            MHD_OPTION_CONNECTION_LIMIT, connectionLimit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, perClientLimit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeoutSeconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memoryLimit,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completedContext,
                            MHD_OPTION_UNESCAPE_CALLBACK, formstore_mhd_keep_escaped, NULL,
                            MHD_OPTION_END);
}

/* The port the daemon listens on (the one the system chose for port 0). */
static inline uint16_t formstore_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

#endif
