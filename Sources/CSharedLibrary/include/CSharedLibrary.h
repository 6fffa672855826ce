#ifndef FORMSTORE_CSHAREDLIBRARY_H
#define FORMSTORE_CSHAREDLIBRARY_H

#include <pthread.h>

/* A shared library `formstore` opens with dlopen the first time it is needed
   instead of linking it (docs/binary.md): CLibPQ and CMicroHTTPD forward
   their functions through one of these. */
struct formstore_library {
    /* The file dlopen is given, e.g. "libpq.so.5". */
    const char *file;
    /* An environment variable that, when set, names the file instead. */
    const char *variable;
    pthread_mutex_t lock;
    int tried;
    void *handle;
    char reason[512];
};

#define FORMSTORE_LIBRARY(file, variable) { file, variable, PTHREAD_MUTEX_INITIALIZER, 0, NULL, "" }

/* Opens the library once; NULL when it is loaded, else the loader's reason
   (kept in `library`, the same on every later call). */
const char *formstore_library_open(struct formstore_library *library);

/* The library's function `name`, opening the library first. A library that
   cannot be opened, or lacks the function, is reported on stderr and the
   process aborts: callers check `formstore_library_open` before the first use,
   so this only happens when a caller forgot to. */
void *formstore_library_function(struct formstore_library *library, const char *name);

/* A function of the library under its own name, forwarding to the library's
   (looked up on the first call). `result name parameters` must match the
   library's header, which the including file has included: the compiler
   checks it. */
#define FORMSTORE_FORWARD(library, result, name, parameters, arguments)                          \
    result name parameters {                                                                     \
        static result (*function) parameters;                                                    \
        result (*loaded) parameters = __atomic_load_n(&function, __ATOMIC_ACQUIRE);              \
        if (loaded == NULL) {                                                                    \
            loaded = (result (*) parameters)formstore_library_function(&library, #name);         \
            __atomic_store_n(&function, loaded, __ATOMIC_RELEASE);                               \
        }                                                                                        \
        return loaded arguments;                                                                 \
    }

/* The same for a function returning nothing. */
#define FORMSTORE_FORWARD_VOID(library, name, parameters, arguments)                             \
    void name parameters {                                                                       \
        static void (*function) parameters;                                                      \
        void (*loaded) parameters = __atomic_load_n(&function, __ATOMIC_ACQUIRE);                \
        if (loaded == NULL) {                                                                    \
            loaded = (void (*) parameters)formstore_library_function(&library, #name);           \
            __atomic_store_n(&function, loaded, __ATOMIC_RELEASE);                               \
        }                                                                                        \
        loaded arguments;                                                                        \
    }

#endif
