#include "CSharedLibrary.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *formstore_library_open(struct formstore_library *library) {
    pthread_mutex_lock(&library->lock);
    if (!library->tried) {
        library->tried = 1;
        const char *named = getenv(library->variable);
        const char *file = named != NULL && named[0] != '\0' ? named : library->file;
        /* RTLD_LOCAL: the library's names stay out of the global scope; dlsym
           on the handle finds the library's own function, never the
           forwarding one of the same name. */
        library->handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
        if (library->handle == NULL) {
            const char *error = dlerror();
            snprintf(library->reason, sizeof library->reason, "%s", error != NULL ? error : file);
        }
    }
    const char *reason = library->handle == NULL ? library->reason : NULL;
    pthread_mutex_unlock(&library->lock);
    return reason;
}

void *formstore_library_function(struct formstore_library *library, const char *name) {
    const char *reason = formstore_library_open(library);
    if (reason != NULL) {
        fprintf(stderr, "formstore: cannot load %s: %s\n", library->file, reason);
        abort();
    }
    void *function = dlsym(library->handle, name);
    if (function == NULL) {
        fprintf(stderr, "formstore: %s has no function %s\n", library->file, name);
        abort();
    }
    return function;
}
