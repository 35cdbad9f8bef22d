// Drives the encrypting VFS's file methods directly, below SQLite, for the tests of what it
// writes: here, whether a process and its fork() child ever seal two pages under one nonce.
#ifndef ENCRYPTED_VFS_PROBE_H
#define ENCRYPTED_VFS_PROBE_H

#include <stdint.h>

/// Writes pages 2 to 4 of a new store at `path` through one open file of an encrypting VFS
/// (page 2 before a fork(), page 3 in the child, page 4 in the parent after the child ended),
/// then copies the nonce each page was sealed under into `nonces` (3 × 24 bytes). Returns 0,
/// or -1 when a step failed.
int encrypted_vfs_probe_fork_nonces(const char *path, uint8_t nonces[72]);

#endif
