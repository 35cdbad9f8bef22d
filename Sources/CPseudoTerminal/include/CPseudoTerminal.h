#ifndef C_PSEUDO_TERMINAL_H
#define C_PSEUDO_TERMINAL_H

#include <stddef.h>

/// Opens the master side of a new pseudo-terminal, unlocked, and writes the path of its other
/// side into `path` (`size` bytes). Returns the master's descriptor, or -1 with errno set.
/// (glibc declares posix_openpt, grantpt, unlockpt and ptsname_r only under _XOPEN_SOURCE,
/// which Swift's Glibc module doesn't define.)
int journal_open_pseudo_terminal(char *path, size_t size);

#endif
