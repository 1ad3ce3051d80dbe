// The system calls behind apigen's all-or-nothing output swap. C rather than Swift because the C
// libraries declare them only under _GNU_SOURCE (glibc) or not at all (older glibc, musl), and
// `syscall` is variadic, which Swift cannot call.
#define _GNU_SOURCE
#include "CDirectoryExchange.h"

#include <errno.h>
#include <stdio.h>

#if defined(__linux__)
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

int c_directory_exchange(const char *a, const char *b) {
#if defined(__linux__) && defined(SYS_renameat2)
    // RENAME_EXCHANGE from <linux/fs.h>, spelled here for C libraries that do not define it.
    const unsigned int rename_exchange = 1u << 1;
    return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, rename_exchange);
#elif defined(__APPLE__)
    return renamex_np(a, b, RENAME_SWAP);
#else
    (void)a;
    (void)b;
    errno = ENOSYS;
    return -1;
#endif
}
