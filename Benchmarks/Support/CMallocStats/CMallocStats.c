#include "CMallocStats.h"
#if defined(__linux__)
#include <malloc.h>
#endif
#if defined(__GLIBC__)
size_t opsdash_malloc_allocated_bytes(void) { return mallinfo2().uordblks; }
#else
size_t opsdash_malloc_allocated_bytes(void) { return 0; }
#endif
