// Counting allocator: this file defines the C allocation functions in the benchmark executable.
// The dynamic linker binds every call to them in the process (the Swift runtime's
// swift_slowAlloc, Foundation, Dispatch, OpenCombine's helpers) to these definitions, which
// count and forward to glibc's own implementations (__libc_malloc and friends). The memory
// therefore still comes from glibc, so malloc_usable_size and mallinfo2 keep working.
#define _GNU_SOURCE
#include "MallocCounter.h"

#include <errno.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#if defined(__linux__) && defined(__GLIBC__)

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);

static atomic_bool enabled = false;
static _Atomic uint64_t allocations = 0;
static _Atomic uint64_t reallocations = 0;
static _Atomic uint64_t frees = 0;
static _Atomic uint64_t bytesRequested = 0;

static inline void countAllocation(size_t size) {
  if (atomic_load_explicit(&enabled, memory_order_relaxed)) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&bytesRequested, size, memory_order_relaxed);
  }
}

void *malloc(size_t size) {
  countAllocation(size);
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  countAllocation(count * size);
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  if (pointer == NULL) {
    countAllocation(size);
  } else if (atomic_load_explicit(&enabled, memory_order_relaxed)) {
    atomic_fetch_add_explicit(&reallocations, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&bytesRequested, size, memory_order_relaxed);
  }
  return __libc_realloc(pointer, size);
}

void free(void *pointer) {
  if (pointer != NULL && atomic_load_explicit(&enabled, memory_order_relaxed)) {
    atomic_fetch_add_explicit(&frees, 1, memory_order_relaxed);
  }
  __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
  countAllocation(size);
  return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
  countAllocation(size);
  return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) {
    return EINVAL;
  }
  countAllocation(size);
  void *pointer = __libc_memalign(alignment, size);
  if (pointer == NULL && size != 0) {
    return ENOMEM;
  }
  *result = pointer;
  return 0;
}

void *valloc(size_t size) {
  countAllocation(size);
  return __libc_memalign((size_t)sysconf(_SC_PAGESIZE), size);
}

void mallocCounterSetEnabled(bool value) {
  atomic_store_explicit(&enabled, value, memory_order_seq_cst);
}

MallocCounts mallocCounterRead(void) {
  MallocCounts counts;
  counts.allocations = atomic_load_explicit(&allocations, memory_order_relaxed);
  counts.reallocations = atomic_load_explicit(&reallocations, memory_order_relaxed);
  counts.frees = atomic_load_explicit(&frees, memory_order_relaxed);
  counts.bytesRequested = atomic_load_explicit(&bytesRequested, memory_order_relaxed);
  return counts;
}

uint64_t mallocBytesInUse(void) { return (uint64_t)mallinfo2().uordblks; }

#else

void mallocCounterSetEnabled(bool value) { (void)value; }
MallocCounts mallocCounterRead(void) {
  MallocCounts counts = {0, 0, 0, 0};
  return counts;
}
uint64_t mallocBytesInUse(void) { return 0; }

#endif

uint64_t monotonicNanoseconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

uint64_t threadCPUNanoseconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

int processorCount(void) { return (int)sysconf(_SC_NPROCESSORS_ONLN); }

double loadAverage(void) {
  double loads[1];
  return getloadavg(loads, 1) == 1 ? loads[0] : -1;
}
