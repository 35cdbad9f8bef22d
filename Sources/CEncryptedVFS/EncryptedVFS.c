// The encrypting VFS: SQLite's own files, encrypted page by page beneath SQLite.
//
// Invariant: no byte of a store's content reaches the file system in the clear, and no byte
// read back is handed to SQLite unless it authenticates as the page this file wrote there.
//
// Files SQLite opens through an instance, by kind:
// - A store (SQLITE_OPEN_MAIN_DB) is a sequence of units of ENCRYPTED_VFS_PAGE_SIZE bytes, one
//   per page. A unit holds the page encrypted with XChaCha20-Poly1305 (libsodium), but for its
//   last 40 bytes, SQLite's reserved space, which hold the nonce and the tag. SQLite is told to
//   reserve them when it creates the store; a page 1 that doesn't declare them is never written.
// - A write-ahead log (SQLITE_OPEN_WAL) keeps its 32-byte header in the clear (format, page
//   size, checkpoint counter, salts: no content), but for its last 8 bytes: SQLite's checksum of
//   the first 24 is replaced on disk by a keyed MAC of them (SipHash-2-4 under a key derived from
//   the file's, over the identity too), and computed again for SQLite when the header reads back
//   whole. A header that fails its MAC is an error, not an empty log: its salts decide which
//   frames SQLite reads, and a header altered by one byte would drop every transaction in the
//   log. A header of an earlier version of this layout (SQLite's checksum in its place) is read
//   only while it is the header of the log's first frame, when that frame authenticates: the
//   same salts, and the frame's checksum valid from the header's, as SQLite checks it. The log
//   is then a sequence of units of 24 + page size bytes, one per frame: the frame header (page number, commit size, salts, checksums of
//   the page's plain text) and the page, encrypted together, the nonce and tag again in the
//   page's reserved space. A frame unit that doesn't authenticate when read whole, as SQLite's
//   recovery reads frames, reads as zeros: an invalid frame, the end of the log, which is what a
//   frame torn by a crash is. But in a strict log (the URI parameter strict-log=1: a store
//   synced at every commit), a failing frame followed by a commit frame and then by any other
//   frame of the log's current generation (its salts) is an error: a transaction was written
//   after the one it belongs to had been synced, so it was altered or damaged, not torn. Read
//   any other way, or read to be rewritten, a frame that fails is an error: no write turns it
//   into a valid frame.
// - Anything else (the rollback journal of a store being created, temporary files, statement
//   journals) is only needed while the connection lives: XOR-ed with the XChaCha20 key stream
//   of a key and nonce drawn at random when it is opened and never stored. The stream is not
//   authenticated (a file nobody reads back after the connection) and follows the offset: who
//   reads such a file twice while it is open, across a rewrite of the same bytes, learns the
//   XOR of what was there and what replaced it.
// - The WAL index (-shm) is passed through: it maps page numbers to frames and holds no page
//   content, but its header keeps SQLite's running checksum of the log's frames as written,
//   page content included: 8 bytes computed from plain text.
//
// Keys and nonces: each store's key is derived from the data key and the store's identity
// (the URI parameter encrypted-file=N) with libsodium's crypto_kdf, and held in guarded memory
// while the file is open. The associated data of a unit is a format tag, the identity, the kind
// of file and the unit's index, so a unit moved to another place, file or journal fails to
// authenticate. Every unit sealed draws a fresh 24-byte nonce from the kernel (getrandom), so no
// state of this process, copied by fork() or a restored snapshot, can make two seals share one:
// a repeat needs two draws of the same 192 random bits.
//
// A page that lies past the end of a store that is not empty is missing, and an error, when the
// store's own first page counts it (the database size in its header): the file was cut short.
// A page past that count reads as zeros, as SQLite's own VFS reads past the end: SQLite adds
// pages to a store in its log, and reads a page it adds before it writes it. (So does it the
// first page of a new, empty store, to find it empty.) A first page that fails to authenticate
// counts every page.
//
// One read is spared the error: SQLite's look at a store's header (the first 100 bytes of page
// 1, for its page size) before it opens the log. A checkpoint cut by a crash leaves the pages it
// was writing torn, their first sectors new and the rest old, and page 1 among them when the
// store grew; the log still holds each whole, and SQLite reads them from it. So when page 1
// fails to authenticate, that look reads zeros (no header: SQLite then takes the page size
// from page 1 as it reads it, through the log); page 1 read whole, as SQLite reads a page the
// log doesn't hold, is still an error.
//
// Not detected here: a unit replaced by an older copy of itself from the same place of the same
// file (it authenticates), and the write-ahead log cut short or altered in its last transaction
// (or in the frame that commits the one before): it reads as the end of the log, as after a
// crash. (The journal tells that loss from a crash when its search store applied what the log
// lost: IndexStanding.swift.)
// SQLite's own checks (page types, the b-tree's structure, the WAL's salts and cumulative
// checksums) catch many such mixes, not all.
#include "CEncryptedVFS.h"

#include <errno.h>
#include <pthread.h>
#include <sodium.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#define PAGE ENCRYPTED_VFS_PAGE_SIZE
#define TRAILER ENCRYPTED_VFS_RESERVED_BYTES
#define NONCE crypto_aead_xchacha20poly1305_ietf_NPUBBYTES
#define TAG crypto_aead_xchacha20poly1305_ietf_ABYTES
#define WAL_HEADER 32
#define FRAME_HEADER 24
#define FRAME (FRAME_HEADER + PAGE)
#define AD_BYTES 25
#define KEY ENCRYPTED_VFS_KEY_BYTES
#define HEADER_MAC_KEY crypto_shorthash_KEYBYTES
#define HEADER_SEALED 24
#define DATABASE_HEADER 100

_Static_assert(NONCE + TAG == TRAILER, "the reserved space holds exactly a nonce and a tag");
_Static_assert(KEY == crypto_aead_xchacha20poly1305_ietf_KEYBYTES, "one key size");
_Static_assert(KEY == crypto_kdf_KEYBYTES, "the data key is a crypto_kdf master key");

struct encrypted_vfs {
    sqlite3_vfs base;
    sqlite3_vfs *root;
    unsigned char *key; // guarded memory; NULL once retired
    char name[64];
};

typedef enum { KIND_PAGES = 1, KIND_FRAMES = 2, KIND_SCRATCH = 3 } file_kind;

typedef struct {
    sqlite3_file base;
    sqlite3_file *real;
    file_kind kind;
    sqlite3_int64 identity;
    const char *path;
    unsigned char *key;        // guarded memory (sodium_malloc), KEY bytes
    unsigned char *header_key; // a log's: guarded memory, HEADER_MAC_KEY bytes, for its header's MAC
    int strict_log;            // a WAL whose mid-log damage is an error (strict-log=1)
    unsigned char scratch_nonce[crypto_stream_xchacha20_NONCEBYTES];
    unsigned char *unit;       // FRAME bytes for stores and logs
    unsigned char *scratch;    // the XOR buffer of scratch files
    int scratch_capacity;
    int pending;               // a frame header written, its page not yet
    sqlite3_int64 pending_offset;
    unsigned char pending_header[FRAME_HEADER];
} encrypted_file;

// The last failures, for the error message: SQLite's result codes can't carry them, and the
// thread that reads a page is often not the one that reports the error. One per file, for the
// last few files, so that a failure is not overwritten by another journal's in the same process.
#define FAILURES 16
static struct {
    char path[512];
    char message[320];
    unsigned long long order;
} failures[FAILURES];
static unsigned long long failures_noted;
static pthread_mutex_t failures_lock = PTHREAD_MUTEX_INITIALIZER;

void encrypted_vfs_last_failure(const char *store_path, char *out, int size) {
    pthread_mutex_lock(&failures_lock);
    int found = -1;
    size_t length = strlen(store_path);
    for (int i = 0; i < FAILURES; i++) {
        if (failures[i].order == 0 || strncmp(failures[i].path, store_path, length) != 0) continue;
        if (found < 0 || failures[i].order > failures[found].order) found = i;
    }
    snprintf(out, (size_t)size, "%s", found < 0 ? "" : failures[found].message);
    pthread_mutex_unlock(&failures_lock);
}

static void note(const char *path, const char *what, long long unit_number, const char *unit) {
    const char *named = path ? path : "a temporary file";
    pthread_mutex_lock(&failures_lock);
    int slot = 0;
    for (int i = 0; i < FAILURES; i++) {
        if (failures[i].order != 0 && strcmp(failures[i].path, named) == 0) {
            slot = i;
            break;
        }
        if (failures[i].order < failures[slot].order) slot = i;
    }
    snprintf(failures[slot].path, sizeof failures[slot].path, "%s", named);
    if (unit)
        snprintf(failures[slot].message, sizeof failures[slot].message, "%s: %s %lld %s", named, unit, unit_number, what);
    else
        snprintf(failures[slot].message, sizeof failures[slot].message, "%s: %s", named, what);
    failures[slot].order = ++failures_noted;
    pthread_mutex_unlock(&failures_lock);
}

static void note_failure(const encrypted_file *f, sqlite3_int64 index, const char *what) {
    note(f->path, what, (long long)(index + 1), f->kind == KIND_FRAMES ? "frame" : "page");
}

static sqlite3_int64 unit_bytes(const encrypted_file *f) { return f->kind == KIND_FRAMES ? FRAME : PAGE; }
static sqlite3_int64 units_start(const encrypted_file *f) { return f->kind == KIND_FRAMES ? WAL_HEADER : 0; }

static void put64(unsigned char *to, uint64_t value) {
    for (int i = 0; i < 8; i++) to[i] = (unsigned char)(value >> (8 * i));
}

static uint32_t get32(const unsigned char *from) {
    return (uint32_t)from[0] << 24 | (uint32_t)from[1] << 16 | (uint32_t)from[2] << 8 | from[3];
}

static void put32(unsigned char *to, uint32_t value) {
    to[0] = (unsigned char)(value >> 24), to[1] = (unsigned char)(value >> 16), to[2] = (unsigned char)(value >> 8);
    to[3] = (unsigned char)value;
}

/// SQLite's checksum of a log (walChecksumBytes): over 32-bit words, big-endian when the log's
/// magic number says so (its last bit), else little-endian, carried on from (*s0, *s1).
static void log_checksum(const unsigned char *bytes, int count, int big_endian, uint32_t *s0, uint32_t *s1) {
    uint32_t a = *s0, b = *s1;
    for (int i = 0; i + 8 <= count; i += 8) {
        const unsigned char *x = bytes + i;
        uint32_t w0 = big_endian ? get32(x) : (uint32_t)x[3] << 24 | (uint32_t)x[2] << 16 | (uint32_t)x[1] << 8 | x[0];
        uint32_t w1 = big_endian ? get32(x + 4)
                                 : (uint32_t)x[7] << 24 | (uint32_t)x[6] << 16 | (uint32_t)x[5] << 8 | x[4];
        a += w0 + b;
        b += w1 + a;
    }
    *s0 = a, *s1 = b;
}

/// The MAC of a log's header, `header` (its first HEADER_SEALED bytes), bound to the file's
/// identity.
static void header_mac(const encrypted_file *f, const unsigned char *header, unsigned char mac[8]) {
    unsigned char input[16 + HEADER_SEALED];
    memcpy(input, "jrnlwh01", 8);
    put64(input + 8, (uint64_t)f->identity);
    memcpy(input + 16, header, HEADER_SEALED);
    crypto_shorthash(mac, input, sizeof input, f->header_key);
}

/// Writes SQLite's checksum of `header`'s first HEADER_SEALED bytes into its last 8.
static void put_header_checksum(unsigned char header[WAL_HEADER]) {
    uint32_t s0 = 0, s1 = 0;
    log_checksum(header, HEADER_SEALED, header[3] & 1, &s0, &s1);
    put32(header + 24, s0), put32(header + 28, s1);
}

static void associated_data(const encrypted_file *f, sqlite3_int64 index, unsigned char ad[AD_BYTES]) {
    memcpy(ad, "jrnlpg01", 8);
    put64(ad + 8, (uint64_t)f->identity);
    ad[16] = (unsigned char)f->kind;
    put64(ad + 17, (uint64_t)index);
}

/// The page inside unit `index` (held in f->unit) is one SQLite may have on disk: page 1 must
/// declare the page size and reserved space the layout needs.
static int layout_holds(const encrypted_file *f, sqlite3_int64 index) {
    const unsigned char *page = f->unit;
    int is_first_page = index == 0;
    if (f->kind == KIND_FRAMES) {
        page = f->unit + FRAME_HEADER;
        is_first_page = get32(f->unit) == 1;
    }
    if (!is_first_page) return 1;
    int size = page[16] << 8 | page[17];
    return size == PAGE && page[20] == TRAILER;
}

/// Fills `out` from the kernel's generator (getrandom), never from a generator whose state this
/// process holds, which a fork() or a restored snapshot would copy.
static int kernel_random(unsigned char *out, size_t count) {
    while (count > 0) {
        ssize_t drawn = getrandom(out, count, 0);
        if (drawn < 0) {
            if (errno == EINTR) continue;
            return 0;
        }
        out += drawn, count -= (size_t)drawn;
    }
    return 1;
}

/// Encrypts f->unit, the plain text of unit `index`, and writes it.
static int store_unit(encrypted_file *f, sqlite3_int64 index) {
    sqlite3_int64 size = unit_bytes(f);
    if (!layout_holds(f, index)) {
        note_failure(f, index, "is not laid out for encryption (4096-byte pages, 40 reserved bytes): not written");
        return SQLITE_IOERR_WRITE;
    }
    unsigned char ad[AD_BYTES];
    associated_data(f, index, ad);
    unsigned char *nonce = f->unit + size - TRAILER;
    if (!kernel_random(nonce, NONCE)) {
        note_failure(f, index, "could not draw a nonce from the kernel: not written");
        return SQLITE_IOERR_WRITE;
    }
    crypto_aead_xchacha20poly1305_ietf_encrypt_detached(f->unit, f->unit + size - TAG, NULL, f->unit, (unsigned long long)(size - TRAILER), ad,
                                                        AD_BYTES, NULL, nonce, f->key);
    return f->real->pMethods->xWrite(f->real, f->unit, (int)size, units_start(f) + index * size);
}

static const char *const fails_authentication = "fails authentication: the file was altered, damaged, or belongs elsewhere";

static int read_unit(encrypted_file *f, sqlite3_int64 index, const char **why);

/// How many pages the store's file says it holds: the database size in the header of its own
/// first page (SQLite writes it whenever the size changes), or INT64_MAX when that
/// page can't be read or doesn't authenticate (every page then counts as one the file must
/// hold). f->unit is used as scratch.
static sqlite3_int64 pages_counted(encrypted_file *f) {
    const char *why = NULL;
    if (read_unit(f, 0, &why) != SQLITE_OK) return INT64_MAX;
    return get32(f->unit + 28);
}

/// Reads unit `index` into f->unit and decrypts it, its reserved space read as zeros.
/// SQLITE_IOERR_SHORT_READ (f->unit zeroed) when the unit lies past the end of a log, or is the
/// first page of an empty store; SQLITE_IOERR_DATA when it is missing from a store that is not
/// empty, cut short, or fails to authenticate, `*why` then saying which.
static int read_unit(encrypted_file *f, sqlite3_int64 index, const char **why) {
    sqlite3_int64 size = unit_bytes(f), offset = units_start(f) + index * size;
    int rc = f->real->pMethods->xRead(f->real, f->unit, (int)size, offset);
    if (rc == SQLITE_IOERR_SHORT_READ) {
        sqlite3_int64 file_size = 0;
        if (f->real->pMethods->xFileSize(f->real, &file_size) == SQLITE_OK && file_size <= offset) {
            memset(f->unit, 0, (size_t)size);
            if (f->kind == KIND_FRAMES || (file_size == 0 && index == 0)) return SQLITE_IOERR_SHORT_READ;
            if (index >= pages_counted(f)) {
                memset(f->unit, 0, (size_t)size);
                return SQLITE_IOERR_SHORT_READ;
            }
            *why = "is missing: the file was cut short";
            return SQLITE_IOERR_DATA;
        }
        *why = "is cut short: the file was truncated or damaged";
        return SQLITE_IOERR_DATA;
    }
    if (rc != SQLITE_OK) return rc;
    unsigned char ad[AD_BYTES];
    associated_data(f, index, ad);
    if (crypto_aead_xchacha20poly1305_ietf_decrypt_detached(f->unit, NULL, f->unit, (unsigned long long)(size - TRAILER), f->unit + size - TAG,
                                                            ad, AD_BYTES, f->unit + size - TRAILER, f->key) != 0) {
        *why = fails_authentication;
        return SQLITE_IOERR_DATA;
    }
    memset(f->unit + size - TRAILER, 0, TRAILER);
    return SQLITE_OK;
}

/// read_unit, noting what is wrong for the error message.
static int load_unit(encrypted_file *f, sqlite3_int64 index) {
    const char *why = NULL;
    int rc = read_unit(f, index, &why);
    if (why) note_failure(f, index, why);
    return rc;
}

/// Whether, after frame `failed` of a log, a frame of the log's current generation (the salts
/// of its header) that authenticates commits a transaction and another such frame follows it:
/// then a later transaction was written after the failed frame's was synced. f->unit is used
/// as scratch.
static int later_transaction_follows(encrypted_file *f, sqlite3_int64 failed) {
    unsigned char header[WAL_HEADER];
    sqlite3_int64 file_size = 0;
    if (f->real->pMethods->xRead(f->real, header, WAL_HEADER, 0) != SQLITE_OK) return 0;
    if (f->real->pMethods->xFileSize(f->real, &file_size) != SQLITE_OK) return 0;
    int committed = 0;
    for (sqlite3_int64 index = failed + 1; WAL_HEADER + (index + 1) * FRAME <= file_size; index++) {
        const char *why = NULL;
        if (read_unit(f, index, &why) != SQLITE_OK) continue;
        if (memcmp(f->unit + 8, header + 16, 8) != 0) continue; // an earlier generation's frame
        if (committed) return 1;
        if (get32(f->unit + 4) != 0) committed = 1;
    }
    return 0;
}

/// Writes out a frame header held back for its page, over whatever the frame holds.
static int flush_pending(encrypted_file *f) {
    if (!f->pending) return SQLITE_OK;
    f->pending = 0;
    sqlite3_int64 index = (f->pending_offset - WAL_HEADER) / FRAME;
    int rc = load_unit(f, index);
    if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ) return rc;
    memcpy(f->unit, f->pending_header, FRAME_HEADER);
    return store_unit(f, index);
}

static void scratch_xor(encrypted_file *f, unsigned char *data, sqlite3_int64 count, sqlite3_int64 offset) {
    uint64_t block = (uint64_t)offset / 64;
    int skip = (int)(offset % 64);
    if (skip && count > 0) {
        unsigned char stream[64] = {0};
        crypto_stream_xchacha20_xor_ic(stream, stream, 64, f->scratch_nonce, block, f->key);
        sqlite3_int64 n = 64 - skip < count ? 64 - skip : count;
        for (sqlite3_int64 i = 0; i < n; i++) data[i] ^= stream[skip + i];
        sodium_memzero(stream, sizeof stream);
        data += n, count -= n, block++;
    }
    if (count > 0) crypto_stream_xchacha20_xor_ic(data, data, (unsigned long long)count, f->scratch_nonce, block, f->key);
}

/// Whether `header`, whose last 8 bytes are not its MAC, is the header of an earlier version of
/// this layout that SQLite may read: its last 8 bytes are SQLite's checksum of the rest, and the
/// log's first frame, if one authenticates, has its salts and a checksum valid from the header's
/// (a log with no frame that authenticates gives SQLite nothing to read). f->unit is used as
/// scratch.
static int earlier_header_holds(encrypted_file *f, const unsigned char header[WAL_HEADER]) {
    unsigned char expected[WAL_HEADER];
    memcpy(expected, header, WAL_HEADER);
    put_header_checksum(expected);
    if (memcmp(expected + 24, header + 24, 8) != 0) return 0;
    const char *why = NULL;
    if (read_unit(f, 0, &why) != SQLITE_OK) return 1;
    if (memcmp(f->unit + 8, header + 16, 8) != 0) return 0;
    uint32_t s0 = get32(header + 24), s1 = get32(header + 28);
    int big_endian = header[3] & 1;
    log_checksum(f->unit, 8, big_endian, &s0, &s1);
    log_checksum(f->unit + FRAME_HEADER, PAGE, big_endian, &s0, &s1);
    return s0 == get32(f->unit + 16) && s1 == get32(f->unit + 20);
}

/// Reads a log's header into `out` as SQLite wrote it: its MAC checked, and SQLite's checksum put
/// back in its place. SQLITE_IOERR_SHORT_READ when the log has no whole header (SQLite then
/// reads it as empty); SQLITE_IOERR_DATA when the header fails its MAC.
static int load_header(encrypted_file *f, unsigned char out[WAL_HEADER]) {
    int rc = f->real->pMethods->xRead(f->real, out, WAL_HEADER, 0);
    if (rc != SQLITE_OK) return rc;
    unsigned char mac[8];
    header_mac(f, out, mac);
    if (sodium_memcmp(mac, out + HEADER_SEALED, 8) == 0) {
        put_header_checksum(out);
        return SQLITE_OK;
    }
    if (earlier_header_holds(f, out)) return SQLITE_OK;
    note(f->path, "the header fails authentication: the log was altered or damaged, and its transactions can't be read", 0, NULL);
    return SQLITE_IOERR_DATA;
}

/// Writes `amount` bytes of a log's header at `offset` (within it): the header sealed with its
/// MAC in place of SQLite's checksum.
static int store_header(encrypted_file *f, const unsigned char *in, int amount, sqlite3_int64 offset) {
    unsigned char header[WAL_HEADER];
    if (offset != 0 || amount < WAL_HEADER) {
        memset(header, 0, sizeof header);
        int rc = f->real->pMethods->xRead(f->real, header, WAL_HEADER, 0);
        if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ) return rc;
    }
    memcpy(header + offset, in, (size_t)amount);
    header_mac(f, header, header + HEADER_SEALED);
    return f->real->pMethods->xWrite(f->real, header, WAL_HEADER, 0);
}

// MARK: I/O methods

static int file_close(sqlite3_file *file) {
    encrypted_file *f = (encrypted_file *)file;
    int rc = f->kind == KIND_FRAMES ? flush_pending(f) : SQLITE_OK;
    int closed = f->real->pMethods ? f->real->pMethods->xClose(f->real) : SQLITE_OK;
    if (f->unit) {
        sodium_memzero(f->unit, FRAME);
        sqlite3_free(f->unit);
    }
    if (f->scratch) {
        sodium_memzero(f->scratch, (size_t)f->scratch_capacity);
        sqlite3_free(f->scratch);
    }
    sodium_free(f->key);
    f->key = NULL;
    sodium_free(f->header_key);
    f->header_key = NULL;
    return rc != SQLITE_OK ? rc : closed;
}

static int file_read(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    encrypted_file *f = (encrypted_file *)file;
    unsigned char *out = buffer;
    if (f->kind == KIND_SCRATCH) {
        int rc = f->real->pMethods->xRead(f->real, buffer, amount, offset);
        if (rc == SQLITE_OK) {
            scratch_xor(f, out, amount, offset);
        } else if (rc == SQLITE_IOERR_SHORT_READ) {
            sqlite3_int64 size = 0;
            f->real->pMethods->xFileSize(f->real, &size);
            if (size > offset) scratch_xor(f, out, size - offset < amount ? size - offset : amount, offset);
        }
        return rc;
    }
    int rc = flush_pending(f);
    if (rc != SQLITE_OK) return rc;
    if (f->kind == KIND_FRAMES && offset < WAL_HEADER) {
        int n = (int)(WAL_HEADER - offset) < amount ? (int)(WAL_HEADER - offset) : amount;
        unsigned char header[WAL_HEADER];
        rc = load_header(f, header);
        if (rc == SQLITE_IOERR_SHORT_READ) {
            // No whole header: read as SQLite's own VFS reads a file cut short, zeros past its end.
            memset(out, 0, (size_t)amount);
            return rc;
        }
        if (rc != SQLITE_OK) return rc;
        memcpy(out, header + offset, (size_t)n);
        if (n == amount) return SQLITE_OK;
        out += n, amount -= n, offset += n;
    }
    sqlite3_int64 size = unit_bytes(f), start = units_start(f);
    int short_read = 0;
    while (amount > 0) {
        sqlite3_int64 index = (offset - start) / size, within = (offset - start) % size;
        int n = (int)(size - within) < amount ? (int)(size - within) : amount;
        const char *why = NULL;
        rc = read_unit(f, index, &why);
        if (rc == SQLITE_IOERR_SHORT_READ) {
            short_read = 1;
        } else if (rc == SQLITE_IOERR_DATA && f->kind == KIND_FRAMES && within == 0 && n == size) {
            if (f->strict_log && later_transaction_follows(f, index)) {
                note_failure(f, index, "fails authentication, and a later transaction follows it: the log was altered or damaged");
                return SQLITE_IOERR_DATA;
            }
            memset(f->unit, 0, (size_t)size);
        } else if (rc == SQLITE_IOERR_DATA && f->kind == KIND_PAGES && offset == 0 && amount <= DATABASE_HEADER &&
                   why == fails_authentication) {
            memset(out, 0, (size_t)amount);
            return SQLITE_IOERR_SHORT_READ;
        } else if (rc != SQLITE_OK) {
            if (why) note_failure(f, index, why);
            return rc;
        }
        memcpy(out, f->unit + within, (size_t)n);
        out += n, amount -= n, offset += n;
    }
    return short_read ? SQLITE_IOERR_SHORT_READ : SQLITE_OK;
}

static int file_write(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
    encrypted_file *f = (encrypted_file *)file;
    const unsigned char *in = buffer;
    if (f->kind == KIND_SCRATCH) {
        if (amount > f->scratch_capacity) {
            unsigned char *larger = sqlite3_malloc(amount);
            if (!larger) return SQLITE_NOMEM;
            if (f->scratch) {
                sodium_memzero(f->scratch, (size_t)f->scratch_capacity);
                sqlite3_free(f->scratch);
            }
            f->scratch = larger, f->scratch_capacity = amount;
        }
        memcpy(f->scratch, buffer, (size_t)amount);
        scratch_xor(f, f->scratch, amount, offset);
        return f->real->pMethods->xWrite(f->real, f->scratch, amount, offset);
    }
    if (f->kind == KIND_FRAMES) {
        int is_frame_start = offset >= WAL_HEADER && (offset - WAL_HEADER) % FRAME == 0;
        if (amount == FRAME_HEADER && is_frame_start) {
            int rc = flush_pending(f);
            if (rc != SQLITE_OK) return rc;
            memcpy(f->pending_header, in, FRAME_HEADER);
            f->pending = 1, f->pending_offset = offset;
            return SQLITE_OK;
        }
        if (f->pending && amount == PAGE && offset == f->pending_offset + FRAME_HEADER) {
            f->pending = 0;
            memcpy(f->unit, f->pending_header, FRAME_HEADER);
            memcpy(f->unit + FRAME_HEADER, in, PAGE);
            return store_unit(f, (f->pending_offset - WAL_HEADER) / FRAME);
        }
        int rc = flush_pending(f);
        if (rc != SQLITE_OK) return rc;
        if (offset < WAL_HEADER) {
            int n = (int)(WAL_HEADER - offset) < amount ? (int)(WAL_HEADER - offset) : amount;
            rc = store_header(f, in, n, offset);
            if (rc != SQLITE_OK || n == amount) return rc;
            in += n, amount -= n, offset += n;
        }
    }
    sqlite3_int64 size = unit_bytes(f), start = units_start(f);
    while (amount > 0) {
        sqlite3_int64 index = (offset - start) / size, within = (offset - start) % size;
        int n = (int)(size - within) < amount ? (int)(size - within) : amount;
        if (n < size) {
            int rc = load_unit(f, index);
            if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ) return rc;
        }
        memcpy(f->unit + within, in, (size_t)n);
        int rc = store_unit(f, index);
        if (rc != SQLITE_OK) return rc;
        in += n, amount -= n, offset += n;
    }
    return SQLITE_OK;
}

static int file_truncate(sqlite3_file *file, sqlite3_int64 size) {
    encrypted_file *f = (encrypted_file *)file;
    int rc = f->kind == KIND_FRAMES ? flush_pending(f) : SQLITE_OK;
    return rc != SQLITE_OK ? rc : f->real->pMethods->xTruncate(f->real, size);
}

static int file_sync(sqlite3_file *file, int flags) {
    encrypted_file *f = (encrypted_file *)file;
    int rc = f->kind == KIND_FRAMES ? flush_pending(f) : SQLITE_OK;
    return rc != SQLITE_OK ? rc : f->real->pMethods->xSync(f->real, flags);
}

static int file_size(sqlite3_file *file, sqlite3_int64 *size) {
    encrypted_file *f = (encrypted_file *)file;
    int rc = f->kind == KIND_FRAMES ? flush_pending(f) : SQLITE_OK;
    return rc != SQLITE_OK ? rc : f->real->pMethods->xFileSize(f->real, size);
}

#define REAL(file) (((encrypted_file *)(file))->real)

static int file_lock(sqlite3_file *file, int level) { return REAL(file)->pMethods->xLock(REAL(file), level); }
static int file_unlock(sqlite3_file *file, int level) { return REAL(file)->pMethods->xUnlock(REAL(file), level); }
static int file_check_reserved_lock(sqlite3_file *file, int *out) {
    return REAL(file)->pMethods->xCheckReservedLock(REAL(file), out);
}
static int file_control(sqlite3_file *file, int op, void *arg) { return REAL(file)->pMethods->xFileControl(REAL(file), op, arg); }
static int file_sector_size(sqlite3_file *file) { return REAL(file)->pMethods->xSectorSize(REAL(file)); }
static int file_device_characteristics(sqlite3_file *file) {
    return REAL(file)->pMethods->xDeviceCharacteristics(REAL(file));
}
static int file_shm_map(sqlite3_file *file, int region, int size, int extend, void volatile **out) {
    return REAL(file)->pMethods->xShmMap(REAL(file), region, size, extend, out);
}
static int file_shm_lock(sqlite3_file *file, int offset, int n, int flags) {
    return REAL(file)->pMethods->xShmLock(REAL(file), offset, n, flags);
}
static void file_shm_barrier(sqlite3_file *file) { REAL(file)->pMethods->xShmBarrier(REAL(file)); }
static int file_shm_unmap(sqlite3_file *file, int delete_flag) { return REAL(file)->pMethods->xShmUnmap(REAL(file), delete_flag); }

// Memory-mapped reads would hand SQLite the encrypted bytes: there are none.
static int file_fetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **out) {
    (void)file, (void)offset, (void)amount;
    *out = NULL;
    return SQLITE_OK;
}
static int file_unfetch(sqlite3_file *file, sqlite3_int64 offset, void *page) {
    (void)file, (void)offset, (void)page;
    return SQLITE_OK;
}

static const sqlite3_io_methods io_methods = {
    3,
    file_close,
    file_read,
    file_write,
    file_truncate,
    file_sync,
    file_size,
    file_lock,
    file_unlock,
    file_check_reserved_lock,
    file_control,
    file_sector_size,
    file_device_characteristics,
    file_shm_map,
    file_shm_lock,
    file_shm_barrier,
    file_shm_unmap,
    file_fetch,
    file_unfetch,
};

// MARK: The VFS

#define ROOT(vfs) (((encrypted_vfs *)(vfs))->root)

static int vfs_open(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *file, int flags, int *out_flags) {
    encrypted_vfs *self = (encrypted_vfs *)vfs;
    encrypted_file *f = (encrypted_file *)file;
    memset(f, 0, sizeof *f);
    f->real = (sqlite3_file *)(f + 1);
    f->path = name;
    if (!self->key) {
        note(name, "the journal's key has been put away", 0, NULL);
        return SQLITE_CANTOPEN;
    }
    f->key = sodium_malloc(KEY);
    if (!f->key) return SQLITE_NOMEM;
    if (flags & (SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_WAL)) {
        f->kind = flags & SQLITE_OPEN_MAIN_DB ? KIND_PAGES : KIND_FRAMES;
        f->identity = name ? sqlite3_uri_int64(name, "encrypted-file", 0) : 0;
        f->strict_log = name ? sqlite3_uri_boolean(name, "strict-log", 0) : 0;
        if (f->identity <= 0) {
            note(name, "opened without its identity (encrypted-file=N)", 0, NULL);
            sodium_free(f->key);
            f->key = NULL;
            return SQLITE_CANTOPEN;
        }
        crypto_kdf_derive_from_key(f->key, KEY, (uint64_t)f->identity, "jrnlfile", self->key);
        f->unit = sqlite3_malloc(FRAME);
        if (f->kind == KIND_FRAMES) {
            f->header_key = sodium_malloc(HEADER_MAC_KEY);
            if (f->header_key) {
                crypto_kdf_derive_from_key(f->header_key, HEADER_MAC_KEY, 1, "jrnlwalh", f->key);
                sodium_mprotect_readonly(f->header_key);
            }
        }
        if (!f->unit || (f->kind == KIND_FRAMES && !f->header_key)) {
            sodium_free(f->key);
            f->key = NULL;
            sodium_free(f->header_key);
            f->header_key = NULL;
            sqlite3_free(f->unit);
            f->unit = NULL;
            return SQLITE_NOMEM;
        }
    } else {
        f->kind = KIND_SCRATCH;
        randombytes_buf(f->key, KEY);
        randombytes_buf(f->scratch_nonce, sizeof f->scratch_nonce);
    }
    sodium_mprotect_readonly(f->key);
    int rc = self->root->xOpen(self->root, name, f->real, flags, out_flags);
    if (rc != SQLITE_OK) {
        sodium_free(f->key);
        f->key = NULL;
        sodium_free(f->header_key);
        f->header_key = NULL;
        sqlite3_free(f->unit);
        f->unit = NULL;
        f->base.pMethods = NULL;
        return rc;
    }
    f->base.pMethods = &io_methods;
    return SQLITE_OK;
}

static int vfs_delete(sqlite3_vfs *vfs, const char *name, int sync_dir) { return ROOT(vfs)->xDelete(ROOT(vfs), name, sync_dir); }
static int vfs_access(sqlite3_vfs *vfs, const char *name, int flags, int *out) { return ROOT(vfs)->xAccess(ROOT(vfs), name, flags, out); }
static int vfs_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    return ROOT(vfs)->xFullPathname(ROOT(vfs), name, size, out);
}
static void *vfs_dl_open(sqlite3_vfs *vfs, const char *name) { return ROOT(vfs)->xDlOpen(ROOT(vfs), name); }
static void vfs_dl_error(sqlite3_vfs *vfs, int size, char *out) { ROOT(vfs)->xDlError(ROOT(vfs), size, out); }
static void (*vfs_dl_sym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) { return ROOT(vfs)->xDlSym(ROOT(vfs), handle, symbol); }
static void vfs_dl_close(sqlite3_vfs *vfs, void *handle) { ROOT(vfs)->xDlClose(ROOT(vfs), handle); }
static int vfs_randomness(sqlite3_vfs *vfs, int size, char *out) { return ROOT(vfs)->xRandomness(ROOT(vfs), size, out); }
static int vfs_sleep(sqlite3_vfs *vfs, int microseconds) { return ROOT(vfs)->xSleep(ROOT(vfs), microseconds); }
static int vfs_current_time(sqlite3_vfs *vfs, double *out) { return ROOT(vfs)->xCurrentTime(ROOT(vfs), out); }
static int vfs_get_last_error(sqlite3_vfs *vfs, int size, char *out) { return ROOT(vfs)->xGetLastError(ROOT(vfs), size, out); }
static int vfs_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *out) { return ROOT(vfs)->xCurrentTimeInt64(ROOT(vfs), out); }

int encrypted_vfs_register(const char *name, const uint8_t *key, encrypted_vfs **out) {
    if (sodium_init() < 0) return SQLITE_ERROR;
    sqlite3_vfs *root = sqlite3_vfs_find(NULL);
    if (!root || root->iVersion < 2 || strlen(name) >= sizeof((encrypted_vfs *)0)->name) return SQLITE_ERROR;
    encrypted_vfs *vfs = sqlite3_malloc(sizeof *vfs);
    if (!vfs) return SQLITE_NOMEM;
    memset(vfs, 0, sizeof *vfs);
    vfs->key = sodium_malloc(KEY);
    if (!vfs->key) {
        sqlite3_free(vfs);
        return SQLITE_NOMEM;
    }
    memcpy(vfs->key, key, KEY);
    sodium_mprotect_readonly(vfs->key);
    strcpy(vfs->name, name);
    vfs->root = root;
    vfs->base = (sqlite3_vfs){
        .iVersion = 2,
        .szOsFile = (int)sizeof(encrypted_file) + root->szOsFile,
        .mxPathname = root->mxPathname,
        .zName = vfs->name,
        .pAppData = vfs,
        .xOpen = vfs_open,
        .xDelete = vfs_delete,
        .xAccess = vfs_access,
        .xFullPathname = vfs_full_pathname,
        .xDlOpen = vfs_dl_open,
        .xDlError = vfs_dl_error,
        .xDlSym = vfs_dl_sym,
        .xDlClose = vfs_dl_close,
        .xRandomness = vfs_randomness,
        .xSleep = vfs_sleep,
        .xCurrentTime = vfs_current_time,
        .xGetLastError = vfs_get_last_error,
        .xCurrentTimeInt64 = vfs_current_time_int64,
    };
    int rc = sqlite3_vfs_register(&vfs->base, 0);
    if (rc != SQLITE_OK) {
        sodium_free(vfs->key);
        sqlite3_free(vfs);
        return rc;
    }
    *out = vfs;
    return SQLITE_OK;
}

void encrypted_vfs_retire(encrypted_vfs *vfs) {
    if (!vfs || !vfs->key) return;
    unsigned char *key = vfs->key;
    vfs->key = NULL;
    sodium_free(key);
}
