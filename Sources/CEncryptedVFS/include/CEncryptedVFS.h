// An SQLite VFS that encrypts every page a journal's stores write, over the default VFS.
//
// Each instance holds one journal's data key. A store opened through it names its identity with
// the URI parameter `encrypted-file=N` (N > 0); the instance derives that file's key from the data
// key, and authenticates every page with its position and the file's identity. The layout, the
// nonces and what is and isn't protected are described in EncryptedVFS.c.
#ifndef CENCRYPTED_VFS_H
#define CENCRYPTED_VFS_H

#include <stdint.h>

/// The page size of an encrypted store: its pages are laid out for this size only.
#define ENCRYPTED_VFS_PAGE_SIZE 4096
/// The bytes each page reserves (SQLite's "reserved space") for its nonce and tag.
#define ENCRYPTED_VFS_RESERVED_BYTES 40
/// The bytes of a data key.
#define ENCRYPTED_VFS_KEY_BYTES 32

typedef struct encrypted_vfs encrypted_vfs;

/// Registers a VFS named `name` (not the default one) that encrypts under a copy of `key`
/// (ENCRYPTED_VFS_KEY_BYTES), kept in guarded memory. Returns an SQLite result code.
int encrypted_vfs_register(const char *name, const uint8_t *key, encrypted_vfs **out);

/// Wipes the instance's key: files it opened keep working until closed, new opens fail. The VFS
/// stays registered (SQLite offers no safe moment to unregister one that connections may use).
void encrypted_vfs_retire(encrypted_vfs *vfs);

/// Copies into `out` the last failure any instance met in this process with a file whose path
/// begins with `store_path` (the store, its log: a page that fails to authenticate, a store
/// opened without its identity), as one line naming the file and page, or an empty string when
/// there was none.
void encrypted_vfs_last_failure(const char *store_path, char *out, int size);

#endif
