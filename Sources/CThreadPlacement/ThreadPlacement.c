#define _GNU_SOURCE
#include "CThreadPlacement.h"

#include <sched.h>
#include <string.h>
#include <unistd.h>

_Static_assert(sizeof(cpu_set_t) == thread_placement_mask_bytes, "a mask is one cpu_set_t");

int thread_placement_current_tid(void) { return (int)gettid(); }

int thread_placement_get(int tid, unsigned char *mask) {
    cpu_set_t set;
    if (sched_getaffinity(tid, sizeof set, &set) != 0) return -1;
    memcpy(mask, &set, sizeof set);
    return 0;
}

int thread_placement_set(int tid, const unsigned char *mask) {
    cpu_set_t set;
    memcpy(&set, mask, sizeof set);
    return sched_setaffinity(tid, sizeof set, &set);
}
