#ifndef C_DIRECTORY_EXCHANGE_H
#define C_DIRECTORY_EXCHANGE_H

/// Exchanges the entries at paths `a` and `b` in one atomic step: Linux's
/// renameat2(RENAME_EXCHANGE), Darwin's renamex_np(RENAME_SWAP). Returns 0 on success and -1,
/// with errno set, on failure; errno is ENOSYS where the system has no such call.
int c_directory_exchange(const char *a, const char *b);

/// Renames `from` to `to` only if nothing is at `to`: Linux's renameat2(RENAME_NOREPLACE),
/// Darwin's renamex_np(RENAME_EXCL), a look before renaming where neither works. Returns 0 on
/// success and -1, with errno set (EEXIST when something is there), on failure.
int c_rename_no_replace(const char *from, const char *to);

#endif
