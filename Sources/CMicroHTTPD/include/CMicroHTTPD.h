#ifndef FORMSTORE_CMICROHTTPD_H
#define FORMSTORE_CMICROHTTPD_H

/* libmicrohttpd's own declarations. `formstore` does not link it:
   MicroHTTPD.c defines each function FormStore calls under its own name and
   forwards it to the library, opened with dlopen the first time `serve`
   needs it (docs/binary.md), so no other command pays for it and its
   dependency chain (gnutls ...) at start-up. */
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/* Opens libmicrohttpd (once; later calls return the first answer). NULL when
   it is loaded, else the loader's reason. The file opened is
   libmicrohttpd.so.12, or the one FORMSTORE_LIBMICROHTTPD names (the tests
   name a missing one). Call it before `formstore_mhd_start`: a function
   called while the library is missing writes the reason to stderr and aborts. */
const char *formstore_mhd_load(void);

/* Swift cannot call variadic C functions: these wrap the ones FormStore uses. */

/* Starts a daemon with a thread per connection (a server-sent events stream
   may wait in its own thread) on `address` (IPv4), with FormStore's limits:
   connections in all and per client, seconds a connection may stay idle,
   and the memory a connection's headers may take (larger requests get 431).
   The path and query are left as sent (percent-encoded): a key holding '/'
   must stay one segment, so the server decodes each segment itself. */
struct MHD_Daemon *formstore_mhd_start(const struct sockaddr_in *address,
                                       unsigned int connectionLimit,
                                       unsigned int perClientLimit,
                                       unsigned int timeoutSeconds,
                                       size_t memoryLimit,
                                       MHD_AccessHandlerCallback handler, void *handlerContext,
                                       MHD_RequestCompletedCallback completed, void *completedContext);

/* The port the daemon listens on (the one the system chose for port 0). */
uint16_t formstore_mhd_port(struct MHD_Daemon *daemon);

#endif
