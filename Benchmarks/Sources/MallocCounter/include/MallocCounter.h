#ifndef MALLOC_COUNTER_H
#define MALLOC_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

/// Counts of the heap operations made while counting was on (all threads).
typedef struct {
  uint64_t allocations;    ///< malloc, calloc, posix_memalign, aligned_alloc, memalign, valloc
  uint64_t reallocations;  ///< realloc with a non-null pointer
  uint64_t frees;          ///< free with a non-null pointer
  uint64_t bytesRequested; ///< the sizes asked for by allocations and reallocations
} MallocCounts;

/// Turns counting on or off. Counting costs one atomic add per call; it is off by default.
void mallocCounterSetEnabled(bool enabled);

/// The counts so far.
MallocCounts mallocCounterRead(void);

/// glibc's mallinfo2().uordblks: bytes in allocated chunks, all arenas, headers included.
uint64_t mallocBytesInUse(void);

/// CLOCK_MONOTONIC in nanoseconds: wall-clock time.
uint64_t monotonicNanoseconds(void);

/// CLOCK_THREAD_CPUTIME_ID in nanoseconds: the processor time the calling thread has used, which
/// does not grow while the thread waits for a processor that other processes are using.
uint64_t threadCPUNanoseconds(void);

/// The number of processors online and the 1-minute load average (-1 if unknown).
int processorCount(void);
double loadAverage(void);

#endif
