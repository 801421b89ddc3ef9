#ifndef OPSDASH_READER_SLOTS_H
#define OPSDASH_READER_SLOTS_H

/* Per-thread reader slots with an asymmetric fence: how a KVO delivery announces what it reads
   with plain stores (no locked read-modify-write), on Linux.

   A reader (a delivery) stores the address of what it reads (its registry) in a slot of its own
   thread, then reads; when done it clears the slot. Neither side has a hardware fence: a writer
   (registering or removing an observer, rare) that swapped out a value calls
   `opsdash_reader_slots_fence()`, which runs `membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)`: a full
   memory barrier on every running thread of the process. After it, every slot store made before
   a reader's read of the old value is visible, so `opsdash_reader_slots_hold()` tells whether a
   reader may still read it. Where membarrier is missing or refused (an old kernel, a sandbox:
   ENOSYS, EPERM, EINVAL), `opsdash_reader_enter()` always answers -1 and the caller takes its
   locked path.

   Slots are never freed: a thread's record goes back to a free list when the thread exits (it
   has no slot in use then) and is reused by the next thread, so a writer walks the records with
   no lock. Everything is a no-op answer (-1, 0) on other systems. */

#include <stdatomic.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Nested deliveries (a handler that publishes) one thread can announce; deeper ones take the
   locked path. */
#define OPSDASH_READER_SLOTS 8

typedef struct opsdash_reader_thread {
  /* What each nesting level reads (0: nothing). Stored by the owning thread only. */
  _Atomic(uintptr_t) slots[OPSDASH_READER_SLOTS];
  /* Slots in use; the owning thread's alone. */
  unsigned depth;
  /* 1 while a thread owns this record. */
  _Atomic(int) owned;
  /* The next record; set once, before the record is published. */
  struct opsdash_reader_thread *_Atomic next;
} opsdash_reader_thread;

#ifdef __linux__
/* This thread's record: NULL before its first delivery, 1 (as a pointer) once it may not use
   slots (membarrier unavailable, or the thread is exiting). */
extern __thread opsdash_reader_thread *opsdash_reader_self;
#endif

/* Slow path of `opsdash_reader_enter`: the calling thread's record, or NULL. */
opsdash_reader_thread *opsdash_reader_attach(void);

/* Announces that this thread reads `what`: the slot to pass to `opsdash_reader_leave`, or -1
   (then nothing was announced: use the locked path). The caller loads what it reads after this. */
static inline int opsdash_reader_enter(const void *what) {
#ifdef __linux__
  opsdash_reader_thread *self = opsdash_reader_self;
  if (__builtin_expect((uintptr_t)self <= 1, 0)) {
    if (self != NULL) return -1;
    self = opsdash_reader_attach();
    if (self == NULL) return -1;
  }
  unsigned slot = self->depth;
  if (__builtin_expect(slot >= OPSDASH_READER_SLOTS, 0)) return -1;
  atomic_store_explicit(&self->slots[slot], (uintptr_t)what, memory_order_relaxed);
  self->depth = slot + 1;
  /* The compiler keeps the caller's later loads after the store; the hardware may not, which
     the writer's membarrier makes up for. */
  atomic_signal_fence(memory_order_seq_cst);
  return (int)slot;
#else
  (void)what;
  return -1;
#endif
}

/* Ends the announcement `slot` made by `opsdash_reader_enter` on this thread (innermost first). */
static inline void opsdash_reader_leave(int slot) {
#ifdef __linux__
  opsdash_reader_thread *self = opsdash_reader_self;
  atomic_signal_fence(memory_order_seq_cst);
  /* Release: every read made while announced happens before a writer's acquiring load of 0. */
  atomic_store_explicit(&self->slots[slot], 0, memory_order_release);
  self->depth = (unsigned)slot;
  /* The caller's later loads (its registry's "something retired" flag) stay after the store. */
  atomic_signal_fence(memory_order_seq_cst);
#else
  (void)slot;
#endif
}

/* Whether some thread has ever used a slot (then a writer must fence and look). */
int opsdash_reader_slots_in_use(void);

/* The asymmetric fence: 0 when every thread of the process went through a full barrier, -1 if
   the system refused (no thread can then have used a slot since attaching needs it to work). */
int opsdash_reader_slots_fence(void);

/* Whether some thread announces `what` now (after `opsdash_reader_slots_fence`). */
int opsdash_reader_slots_hold(const void *what);

#ifdef __cplusplus
}
#endif

#endif
