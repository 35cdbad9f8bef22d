// Which CPUs a thread may run on. glibc declares sched_getaffinity, sched_setaffinity and
// gettid only for C code that defines _GNU_SOURCE, which Swift's Glibc module does not.
#ifndef CTHREAD_PLACEMENT_H
#define CTHREAD_PLACEMENT_H

/// The number of bytes of a CPU mask as these functions take it: one bit per CPU, CPU n in bit
/// n % 8 of byte n / 8.
enum { thread_placement_mask_bytes = 128 };

/// The kernel's id of the calling thread (its process id for the main thread).
int thread_placement_current_tid(void);

/// Copies the CPUs thread `tid` may run on into `mask` (thread_placement_mask_bytes bytes).
/// Returns 0, or -1 with errno set.
int thread_placement_get(int tid, unsigned char *mask);

/// Lets thread `tid` (of this process or another of the same user) run only on the CPUs of
/// `mask` (thread_placement_mask_bytes bytes); the kernel moves it at once when it runs
/// elsewhere. Returns 0, or -1 with errno set (EINVAL when none of them is available).
int thread_placement_set(int tid, const unsigned char *mask);

#endif
