// The power-cut recorder: an LD_PRELOAD layer that logs every change a process makes to the
// files under one folder, so that a test can rebuild what the disk would hold had the power
// been cut at any sync (Tests/JournalCLITests/PowerCut/).
//
// Set POWERCUT_ROOT to an absolute folder and POWERCUT_LOG to the log's path. The process runs
// as usual; each call below that touches a file or folder under the root appends one record
// to the log, in the order the calls took effect (a lock is held across each call and its
// record). Standard output is made line-buffered, as on a terminal, so that a line is out
// when it is printed.
//
// A record: a header, then `length` bytes, then `length2` bytes.
//   OPEN      fd, a = open flags, b = bit 0: the path existed before, bit 1: it is a folder;
//             the absolute path
//   CLOSE     fd
//   WRITE     fd, a = file offset; the bytes written
//   TRUNCATE  fd, a = the new size
//   SYNC      fd (fsync or fdatasync), a = bytes of standard output so far (-1: not a file)
//   RENAME    the old path, then the new one
//   UNLINK    path
//   MKDIR     path
#ifndef POWER_CUT_RECORDER_H
#define POWER_CUT_RECORDER_H

#include <stdint.h>

enum powercut_kind {
    POWERCUT_OPEN = 1,
    POWERCUT_CLOSE = 2,
    POWERCUT_WRITE = 3,
    POWERCUT_TRUNCATE = 4,
    POWERCUT_SYNC = 5,
    POWERCUT_RENAME = 6,
    POWERCUT_UNLINK = 7,
    POWERCUT_MKDIR = 8,
};

struct powercut_record {
    uint32_t kind;
    int32_t fd;
    int64_t a;
    int64_t b;
    uint32_t length;
    uint32_t length2;
};

#endif
