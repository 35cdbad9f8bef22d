// renameat2(RENAME_EXCHANGE): glibc declares it only for C code that asks for it (_GNU_SOURCE).
#ifndef CFILE_EXCHANGE_H
#define CFILE_EXCHANGE_H

/// Swaps the two paths in one step (Linux 3.15+): afterwards each name holds what the other did,
/// and at no moment is either missing. Returns 0, or -1 with errno set.
int file_exchange(const char *first, const char *second);

#endif
