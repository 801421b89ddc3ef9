#pragma once
#include <stddef.h>
/// Bytes currently allocated through malloc (glibc mallinfo2().uordblks; 0 where unavailable).
size_t opsdash_malloc_allocated_bytes(void);
