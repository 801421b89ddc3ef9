#include "reader_slots.h"

#ifdef __linux__
#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

__thread opsdash_reader_thread *opsdash_reader_self;

/* Every record ever made, newest first; records are never freed. */
static opsdash_reader_thread *_Atomic records;
/* 1 once the process registered for expedited membarriers, -1 if that failed. */
static _Atomic(int) fence_state;
/* 1 once some thread attached (and so may use slots). */
static _Atomic(int) in_use;
static pthread_once_t setup_once = PTHREAD_ONCE_INIT;
static pthread_key_t exit_key;

static long call_membarrier(int command) { return syscall(__NR_membarrier, command, 0, 0); }

/* A thread's exit: its record (no slot in use) goes back for the next thread, and anything it
   publishes from a later exit handler takes the locked path. */
static void detach(void *record) {
  opsdash_reader_thread *self = record;
  opsdash_reader_self = (opsdash_reader_thread *)(uintptr_t)1;
  /* Already 0 unless the thread ended inside a delivery (which then never leaves). */
  for (int slot = 0; slot < OPSDASH_READER_SLOTS; slot++) {
    atomic_store_explicit(&self->slots[slot], 0, memory_order_release);
  }
  self->depth = 0;
  atomic_store_explicit(&self->owned, 0, memory_order_release);
}

static void setup(void) {
  long commands = call_membarrier(MEMBARRIER_CMD_QUERY);
  int usable = commands >= 0 && (commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0 &&
               call_membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0 &&
               pthread_key_create(&exit_key, detach) == 0;
  atomic_store(&fence_state, usable ? 1 : -1);
}

static opsdash_reader_thread *claim(void) {
  for (opsdash_reader_thread *record = atomic_load_explicit(&records, memory_order_acquire); record != NULL;
       record = atomic_load_explicit(&record->next, memory_order_acquire)) {
    int free = 0;
    if (atomic_compare_exchange_strong(&record->owned, &free, 1)) return record;
  }
  opsdash_reader_thread *record = calloc(1, sizeof *record);
  if (record == NULL) return NULL;
  atomic_store_explicit(&record->owned, 1, memory_order_relaxed);
  opsdash_reader_thread *head = atomic_load_explicit(&records, memory_order_relaxed);
  do {
    atomic_store_explicit(&record->next, head, memory_order_relaxed);
  } while (!atomic_compare_exchange_weak_explicit(&records, &head, record, memory_order_release,
                                                  memory_order_relaxed));
  return record;
}

opsdash_reader_thread *opsdash_reader_attach(void) {
  opsdash_reader_thread *none = (opsdash_reader_thread *)(uintptr_t)1;
  if (opsdash_reader_self != NULL) return NULL;
  pthread_once(&setup_once, setup);
  opsdash_reader_thread *record = atomic_load(&fence_state) == 1 ? claim() : NULL;
  if (record == NULL || pthread_setspecific(exit_key, record) != 0) {
    if (record != NULL) atomic_store_explicit(&record->owned, 0, memory_order_release);
    opsdash_reader_self = none;
    return NULL;
  }
  /* Set, then fenced, before this thread's first slot store and read: a writer that finds
     `in_use` at 0 after its swap knows no reader announced by a slot could have read the old
     value (the store-then-load pairs with the writer's). */
  atomic_store(&in_use, 1);
  atomic_thread_fence(memory_order_seq_cst);
  opsdash_reader_self = record;
  return record;
}

int opsdash_reader_slots_in_use(void) { return atomic_load(&in_use); }

int opsdash_reader_slots_fence(void) {
  return call_membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0 ? 0 : -1;
}

int opsdash_reader_slots_hold(const void *what) {
  for (opsdash_reader_thread *record = atomic_load_explicit(&records, memory_order_acquire); record != NULL;
       record = atomic_load_explicit(&record->next, memory_order_acquire)) {
    for (int slot = 0; slot < OPSDASH_READER_SLOTS; slot++) {
      if (atomic_load_explicit(&record->slots[slot], memory_order_acquire) == (uintptr_t)what) return 1;
    }
  }
  return 0;
}

#else

opsdash_reader_thread *opsdash_reader_attach(void) { return 0; }
int opsdash_reader_slots_in_use(void) { return 0; }
int opsdash_reader_slots_fence(void) { return -1; }
int opsdash_reader_slots_hold(const void *what) {
  (void)what;
  return 0;
}

#endif
