#define _GNU_SOURCE
#include "shared_memory.h"

#include <errno.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

int opsdash_memory_file(const char *name) {
#if defined(__linux__) && defined(MFD_CLOEXEC)
    return memfd_create(name, MFD_CLOEXEC);
#else
    (void)name;
    errno = ENOSYS;
    return -1;
#endif
}
