// Keeping a process's memory to itself, and small. prctl is variadic in glibc, which Swift
// cannot call, and glibc's malloc.h is not part of Swift's Glibc module.
#ifndef CPROCESS_MEMORY_H
#define CPROCESS_MEMORY_H

/// Makes the process dump no core and forbids other processes of the same user to attach to
/// it or read its memory (/proc/PID/mem, ptrace): only root can then. Returns 0, or -1 with
/// errno set.
int process_memory_keep_private(void);

/// Gives the pages of freed heap memory back to the system (glibc's malloc_trim): a long
/// loop that frees and allocates large buffers on two threads otherwise keeps the most it
/// ever held resident.
void process_memory_release_free(void);

#endif
