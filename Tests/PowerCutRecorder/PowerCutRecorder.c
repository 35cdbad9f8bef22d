// The power-cut recorder's calls (see include/PowerCutRecorder.h for what it logs and why).
//
// Each interposed function resolves the C library's own with dlsym(RTLD_NEXT) and, for a file
// or folder under POWERCUT_ROOT, holds one lock across the real call and the appending of its
// record, so that the log's order is the order the calls took effect. Calls on other files
// pass straight through. Writes that bypass these functions (memory-mapped writes, which
// SQLite makes only to its -shm files) are not seen: the replay checks that its final state
// equals the real files, so a write it missed fails the test rather than passing unseen.
#define _GNU_SOURCE
#include "PowerCutRecorder.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define MAX_FD 65536

static pthread_mutex_t lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static char root[PATH_MAX];
static size_t root_length;
static int log_fd = -1;
static unsigned char tracked[MAX_FD];

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

static void append_all(const void *bytes, size_t count) {
    static ssize_t (*real_write)(int, const void *, size_t);
    if (!real_write) real_write = REAL(write);
    const char *cursor = bytes;
    while (count > 0) {
        ssize_t written = real_write(log_fd, cursor, count);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) abort();  // a log with a hole would make every replay wrong
        cursor += written;
        count -= (size_t)written;
    }
}

static void record(uint32_t kind, int fd, int64_t a, int64_t b, const void *data, size_t length, const char *second) {
    struct powercut_record header = {kind, fd, a, b, (uint32_t)length, second ? (uint32_t)strlen(second) : 0};
    append_all(&header, sizeof header);
    if (length) append_all(data, length);
    if (second) append_all(second, strlen(second));
}

__attribute__((constructor)) static void start(void) {
    const char *folder = getenv("POWERCUT_ROOT");
    const char *log = getenv("POWERCUT_LOG");
    if (!folder || !log || strlen(folder) >= sizeof root) return;
    strcpy(root, folder);
    root_length = strlen(root);
    static int (*real_open)(const char *, int, ...);
    real_open = REAL(open);
    log_fd = real_open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    setvbuf(stdout, NULL, _IOLBF, 0);
}

// The absolute form of `path` (relative to `dirfd`), in `out`; 0 when it can't be formed.
static int absolute(int dirfd, const char *path, char *out) {
    if (!path) return 0;
    if (path[0] == '/') return snprintf(out, PATH_MAX, "%s", path) < PATH_MAX;
    char base[PATH_MAX];
    if (dirfd == AT_FDCWD) {
        if (!getcwd(base, sizeof base)) return 0;
    } else {
        char link[64];
        snprintf(link, sizeof link, "/proc/self/fd/%d", dirfd);
        ssize_t length = readlink(link, base, sizeof base - 1);
        if (length < 0) return 0;
        base[length] = 0;
    }
    return snprintf(out, PATH_MAX, "%s/%s", base, path) < PATH_MAX;
}

static int under_root(const char *path) {
    return log_fd >= 0 && strncmp(path, root, root_length) == 0 && (path[root_length] == '/' || path[root_length] == 0);
}

static int is_tracked(int fd) { return log_fd >= 0 && fd >= 0 && fd < MAX_FD && tracked[fd]; }

static int opened(int dirfd, const char *path, int flags, mode_t mode, int (*call)(int, const char *, int, ...)) {
    char full[PATH_MAX];
    if (!absolute(dirfd, path, full) || !under_root(full)) return call(dirfd, path, flags, mode);
    pthread_mutex_lock(&lock);
    struct stat before;
    int existed = stat(full, &before) == 0;
    int fd = call(dirfd, path, flags, mode);
    if (fd >= 0 && fd < MAX_FD) {
        struct stat status;
        int folder = fstat(fd, &status) == 0 && S_ISDIR(status.st_mode);
        tracked[fd] = 1;
        record(POWERCUT_OPEN, fd, flags, existed | (folder << 1), full, strlen(full), NULL);
    }
    pthread_mutex_unlock(&lock);
    return fd;
}

static int real_openat_any(int dirfd, const char *path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    mode_t mode = va_arg(arguments, mode_t);
    va_end(arguments);
    static int (*real_openat)(int, const char *, int, ...);
    if (!real_openat) real_openat = REAL(openat);
    return real_openat(dirfd, path, flags, mode);
}

#define MODE_ARGUMENT(flags) \
    mode_t mode = 0; \
    if ((flags) & (O_CREAT | __O_TMPFILE)) { \
        va_list arguments; \
        va_start(arguments, flags); \
        mode = va_arg(arguments, mode_t); \
        va_end(arguments); \
    }

int open(const char *path, int flags, ...) {
    MODE_ARGUMENT(flags);
    return opened(AT_FDCWD, path, flags, mode, real_openat_any);
}
int open64(const char *path, int flags, ...) {
    MODE_ARGUMENT(flags);
    return opened(AT_FDCWD, path, flags, mode, real_openat_any);
}
int openat(int dirfd, const char *path, int flags, ...) {
    MODE_ARGUMENT(flags);
    return opened(dirfd, path, flags, mode, real_openat_any);
}
int openat64(int dirfd, const char *path, int flags, ...) {
    MODE_ARGUMENT(flags);
    return opened(dirfd, path, flags, mode, real_openat_any);
}
int __open_2(const char *path, int flags) { return opened(AT_FDCWD, path, flags, 0, real_openat_any); }
int __open64_2(const char *path, int flags) { return opened(AT_FDCWD, path, flags, 0, real_openat_any); }
int __openat_2(int dirfd, const char *path, int flags) { return opened(dirfd, path, flags, 0, real_openat_any); }
int __openat64_2(int dirfd, const char *path, int flags) { return opened(dirfd, path, flags, 0, real_openat_any); }
int creat(const char *path, mode_t mode) { return opened(AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, mode, real_openat_any); }
int creat64(const char *path, mode_t mode) { return opened(AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, mode, real_openat_any); }

int close(int fd) {
    static int (*real_close)(int);
    if (!real_close) real_close = REAL(close);
    if (!is_tracked(fd)) return real_close(fd);
    pthread_mutex_lock(&lock);
    tracked[fd] = 0;
    record(POWERCUT_CLOSE, fd, 0, 0, NULL, 0, NULL);
    int result = real_close(fd);
    pthread_mutex_unlock(&lock);
    return result;
}

static ssize_t written_at(int fd, const void *bytes, size_t count, off_t offset, int positional) {
    static ssize_t (*real_write)(int, const void *, size_t);
    static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
    if (!real_write) real_write = REAL(write);
    if (!real_pwrite) real_pwrite = REAL(pwrite);
    if (!is_tracked(fd)) return positional ? real_pwrite(fd, bytes, count, offset) : real_write(fd, bytes, count);
    pthread_mutex_lock(&lock);
    if (!positional) {
        struct stat status;
        offset = (fcntl(fd, F_GETFL) & O_APPEND) && fstat(fd, &status) == 0 ? status.st_size : lseek(fd, 0, SEEK_CUR);
    }
    ssize_t result = positional ? real_pwrite(fd, bytes, count, offset) : real_write(fd, bytes, count);
    if (result > 0) record(POWERCUT_WRITE, fd, offset, 0, bytes, (size_t)result, NULL);
    pthread_mutex_unlock(&lock);
    return result;
}

ssize_t write(int fd, const void *bytes, size_t count) { return written_at(fd, bytes, count, 0, 0); }
ssize_t pwrite(int fd, const void *bytes, size_t count, off_t offset) { return written_at(fd, bytes, count, offset, 1); }
ssize_t pwrite64(int fd, const void *bytes, size_t count, off_t offset) { return written_at(fd, bytes, count, offset, 1); }

static int truncated(int fd, off_t size, int (*call)(int, off_t)) {
    if (!is_tracked(fd)) return call(fd, size);
    pthread_mutex_lock(&lock);
    int result = call(fd, size);
    if (result == 0) record(POWERCUT_TRUNCATE, fd, size, 0, NULL, 0, NULL);
    pthread_mutex_unlock(&lock);
    return result;
}

int ftruncate(int fd, off_t size) {
    static int (*real)(int, off_t);
    if (!real) real = REAL(ftruncate);
    return truncated(fd, size, real);
}
int ftruncate64(int fd, off_t size) {
    static int (*real)(int, off_t);
    if (!real) real = REAL(ftruncate);
    return truncated(fd, size, real);
}

static int synced(int fd, int (*call)(int)) {
    if (!is_tracked(fd)) return call(fd);
    pthread_mutex_lock(&lock);
    struct stat output;
    int64_t printed = fstat(STDOUT_FILENO, &output) == 0 && S_ISREG(output.st_mode) ? (int64_t)output.st_size : -1;
    record(POWERCUT_SYNC, fd, printed, 0, NULL, 0, NULL);
    int result = call(fd);
    pthread_mutex_unlock(&lock);
    return result;
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = REAL(fsync);
    return synced(fd, real);
}
int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = REAL(fdatasync);
    return synced(fd, real);
}

static int renamed(int fromfd, const char *from, int tofd, const char *to, int (*call)(void)) {
    char old[PATH_MAX], new[PATH_MAX];
    int seen = absolute(fromfd, from, old) && absolute(tofd, to, new) && (under_root(old) || under_root(new));
    if (!seen) return call();
    pthread_mutex_lock(&lock);
    int result = call();
    if (result == 0) record(POWERCUT_RENAME, -1, 0, 0, old, strlen(old), new);
    pthread_mutex_unlock(&lock);
    return result;
}

static const char *rename_from, *rename_to;
static int rename_fromfd, rename_tofd;
static unsigned rename_flags;
static int call_renameat2(void) {
    static int (*real)(int, const char *, int, const char *, unsigned);
    if (!real) real = REAL(renameat2);
    return real(rename_fromfd, rename_from, rename_tofd, rename_to, rename_flags);
}

int renameat2(int fromfd, const char *from, int tofd, const char *to, unsigned flags) {
    pthread_mutex_lock(&lock);
    rename_from = from, rename_to = to, rename_fromfd = fromfd, rename_tofd = tofd, rename_flags = flags;
    int result = renamed(fromfd, from, tofd, to, call_renameat2);
    pthread_mutex_unlock(&lock);
    return result;
}
int renameat(int fromfd, const char *from, int tofd, const char *to) { return renameat2(fromfd, from, tofd, to, 0); }
int rename(const char *from, const char *to) { return renameat2(AT_FDCWD, from, AT_FDCWD, to, 0); }

static int removed(int dirfd, const char *path, int flags) {
    static int (*real)(int, const char *, int);
    if (!real) real = REAL(unlinkat);
    char full[PATH_MAX];
    if (!absolute(dirfd, path, full) || !under_root(full)) return real(dirfd, path, flags);
    pthread_mutex_lock(&lock);
    int result = real(dirfd, path, flags);
    if (result == 0) record(POWERCUT_UNLINK, -1, 0, 0, full, strlen(full), NULL);
    pthread_mutex_unlock(&lock);
    return result;
}

int unlinkat(int dirfd, const char *path, int flags) { return removed(dirfd, path, flags); }
int unlink(const char *path) { return removed(AT_FDCWD, path, 0); }
int rmdir(const char *path) { return removed(AT_FDCWD, path, AT_REMOVEDIR); }

int mkdirat(int dirfd, const char *path, mode_t mode) {
    static int (*real)(int, const char *, mode_t);
    if (!real) real = REAL(mkdirat);
    char full[PATH_MAX];
    if (!absolute(dirfd, path, full) || !under_root(full)) return real(dirfd, path, mode);
    pthread_mutex_lock(&lock);
    int result = real(dirfd, path, mode);
    if (result == 0) record(POWERCUT_MKDIR, -1, 0, 0, full, strlen(full), NULL);
    pthread_mutex_unlock(&lock);
    return result;
}
int mkdir(const char *path, mode_t mode) { return mkdirat(AT_FDCWD, path, mode); }
