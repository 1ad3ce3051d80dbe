#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

/// Turns counting on or off for the whole process. While it is off, an allocation costs one
/// extra load of a flag; while it is on, one relaxed atomic add, which is why the benchmarks count
/// in a pass of their own rather than in the timed rounds.
void allocation_counter_set_enabled(bool enabled);

/// The heap allocations made while counting was on: calls of malloc, calloc, realloc,
/// posix_memalign, aligned_alloc and memalign, from any thread and any library in this process.
uint64_t allocation_counter_allocations(void);

/// The bytes those calls asked for.
uint64_t allocation_counter_bytes(void);

#endif
