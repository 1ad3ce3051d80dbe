// Counts the process's heap allocations by defining malloc and its siblings in the executable,
// which the dynamic linker then binds for every library (the Swift runtime, Foundation, libc's own
// callers), and forwarding each call to glibc's implementation under its exported `__libc_` name.
// Linux with glibc only; elsewhere the counter reads zero.

#include "AllocationCounter.h"

#include <stdatomic.h>
#include <stddef.h>

#if defined(__linux__) && defined(__GLIBC__)

#include <errno.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static atomic_bool enabled;
static atomic_uint_fast64_t allocations;
static atomic_uint_fast64_t bytes;

static inline void count(size_t size) {
    if (atomic_load_explicit(&enabled, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&bytes, size, memory_order_relaxed);
    }
}

void *malloc(size_t size) {
    count(size);
    return __libc_malloc(size);
}

void *calloc(size_t count_, size_t size) {
    count(count_ * size);
    return __libc_calloc(count_, size);
}

void *realloc(void *pointer, size_t size) {
    count(size);
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    count(size);
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count(size);
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    count(size);
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

void allocation_counter_set_enabled(bool on) {
    if (on) {
        atomic_store(&allocations, 0);
        atomic_store(&bytes, 0);
    }
    atomic_store(&enabled, on);
}

uint64_t allocation_counter_allocations(void) { return atomic_load(&allocations); }
uint64_t allocation_counter_bytes(void) { return atomic_load(&bytes); }

#else

void allocation_counter_set_enabled(bool on) { (void)on; }
uint64_t allocation_counter_allocations(void) { return 0; }
uint64_t allocation_counter_bytes(void) { return 0; }

#endif
