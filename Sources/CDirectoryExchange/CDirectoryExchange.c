// The system calls behind apigen's all-or-nothing output swap and first install. C rather than Swift because the C
// libraries declare them only under _GNU_SOURCE (glibc) or not at all (older glibc, musl), and
// `syscall` is variadic, which Swift cannot call.
#define _GNU_SOURCE
#include "CDirectoryExchange.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

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

int c_rename_no_replace(const char *from, const char *to) {
#if defined(__linux__) && defined(SYS_renameat2)
    // RENAME_NOREPLACE from <linux/fs.h>.
    const unsigned int rename_noreplace = 1u << 0;
    int result = (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, rename_noreplace);
    if (result == 0 || (errno != ENOSYS && errno != EINVAL)) return result;
#elif defined(__APPLE__)
    int result = renamex_np(from, to, RENAME_EXCL);
    if (result == 0 || (errno != ENOTSUP && errno != EINVAL)) return result;
#endif
    // No such call, or a file system that refuses it: look, then rename. Not atomic, but the
    // caller holds the output folder's lock, so only a process other than apigen can race it.
    struct stat existing;
    if (lstat(to, &existing) == 0) {
        errno = EEXIST;
        return -1;
    }
    return rename(from, to);
}
