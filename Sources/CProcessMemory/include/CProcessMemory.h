// Keeping a process's memory to itself. prctl is variadic in glibc, which Swift cannot call.
#ifndef CPROCESS_MEMORY_H
#define CPROCESS_MEMORY_H

/// Makes the process dump no core and forbids other processes of the same user to attach to
/// it or read its memory (/proc/PID/mem, ptrace): only root can then. Returns 0, or -1 with
/// errno set.
int process_memory_keep_private(void);

#endif
