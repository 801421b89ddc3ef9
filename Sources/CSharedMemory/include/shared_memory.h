#ifndef OPSDASH_SHARED_MEMORY_H
#define OPSDASH_SHARED_MEMORY_H

/* An anonymous shared-memory file for the publisher's shared delta stream. */

/* A new anonymous memory file (memfd_create, close-on-exec) named `name` in /proc listings:
   its descriptor, or -1 with errno set where the system has none (not Linux, or too old). */
int opsdash_memory_file(const char *name);

#endif
