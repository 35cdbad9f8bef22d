#include "EncryptedVFSProbe.h"

#include <CEncryptedVFS.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE ENCRYPTED_VFS_PAGE_SIZE
#define NONCE 24

int encrypted_vfs_probe_fork_nonces(const char *path, uint8_t nonces[72]) {
    static int registered = 0;
    static encrypted_vfs *vfs = NULL;
    uint8_t key[ENCRYPTED_VFS_KEY_BYTES];
    memset(key, 7, sizeof key);
    if (!registered) {
        if (encrypted_vfs_register("journal-probe", key, &vfs) != SQLITE_OK) return -1;
        registered = 1;
    }
    sqlite3_vfs *through = sqlite3_vfs_find("journal-probe");
    if (!through) return -1;
    const char *parameters[] = {"encrypted-file", "1"};
    sqlite3_filename name = sqlite3_create_filename(path, "", "", 1, parameters);
    sqlite3_file *file = calloc(1, (size_t)through->szOsFile);
    if (!name || !file) return -1;
    int flags = SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    int result = -1;
    if (through->xOpen(through, name, file, flags, &flags) != SQLITE_OK) goto done;
    uint8_t page[PAGE];
    memset(page, 0, sizeof page);
    page[16] = PAGE >> 8, page[17] = PAGE & 0xFF, page[20] = ENCRYPTED_VFS_RESERVED_BYTES;  // page 1's layout
    if (file->pMethods->xWrite(file, page, PAGE, 0) != SQLITE_OK) goto close;
    memset(page, 'a', PAGE - ENCRYPTED_VFS_RESERVED_BYTES);
    if (file->pMethods->xWrite(file, page, PAGE, PAGE) != SQLITE_OK) goto close;
    pid_t child = fork();
    if (child < 0) goto close;
    if (child == 0) {
        memset(page, 'b', PAGE - ENCRYPTED_VFS_RESERVED_BYTES);
        _exit(file->pMethods->xWrite(file, page, PAGE, 2 * PAGE) == SQLITE_OK ? 0 : 1);
    }
    int status = 0;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) goto close;
    memset(page, 'c', PAGE - ENCRYPTED_VFS_RESERVED_BYTES);
    if (file->pMethods->xWrite(file, page, PAGE, 3 * PAGE) != SQLITE_OK) goto close;
    FILE *raw = fopen(path, "rb");
    if (!raw) goto close;
    result = 0;
    for (int unit = 1; unit <= 3 && result == 0; unit++) {
        uint8_t stored[PAGE];
        if (fseek(raw, (long)unit * PAGE, SEEK_SET) != 0 || fread(stored, 1, PAGE, raw) != PAGE) result = -1;
        else memcpy(nonces + (unit - 1) * NONCE, stored + PAGE - ENCRYPTED_VFS_RESERVED_BYTES, NONCE);
    }
    fclose(raw);
close:
    file->pMethods->xClose(file);
done:
    sqlite3_free_filename(name);
    free(file);
    return result;
}
