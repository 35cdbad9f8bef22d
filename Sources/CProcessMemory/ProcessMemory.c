#include "CProcessMemory.h"

#include <malloc.h>
#include <sys/prctl.h>
#include <sys/resource.h>

int process_memory_keep_private(void) {
    struct rlimit none = {0, 0};
    if (setrlimit(RLIMIT_CORE, &none) != 0) return -1;
    // Not dumpable: no core even where a limit allows one, /proc/PID owned by root, and no
    // ptrace attach by processes of the same user.
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

void process_memory_release_free(void) { malloc_trim(0); }
