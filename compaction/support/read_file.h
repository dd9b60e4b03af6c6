/* read_file.h: input files, opened and read whole, for the scene loader, the viewer's scripts,
 * the masks, the reference images and the tools that read JSON. Only regular files, checked
 * before anything is read and without blocking: opening a FIFO (a pipe, `<(...)`) for reading
 * waits for a writer, /dev/zero never ends, and a file over the limit is refused by its size,
 * not after filling memory with it. */
#ifndef COMPACT_READ_FILE_H
#define COMPACT_READ_FILE_H

#include "rc_error.h"

#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

#ifdef __cplusplus
extern "C" {
#endif

/* rc_open_regular's answers other than 0. */
#define RC_OPEN_FAILED      (-1) /* the file cannot be opened: no such file, no permission */
#define RC_OPEN_NOT_REGULAR (-2) /* it is not a regular file: nothing was opened */

/* Open a regular file for reading (binary), never blocking: a path that names a FIFO, a
 * socket, a device or a directory is refused by its stat() before anything opens it, and the
 * open itself is non-blocking (O_NONBLOCK, cleared once the file is open), so a path replaced
 * by a FIFO in between cannot block either. Returns 0 with *f open (fclose it) and *st (NULL
 * allowed) its fstat; or RC_OPEN_FAILED or RC_OPEN_NOT_REGULAR with *f NULL, errno set
 * (open's; EISDIR for a directory, EINVAL for another file that is not regular) and, in `why`
 * (NULL allowed), the reason without the path: strerror(errno), or "not a regular file (a
 * FIFO)" (a socket, a character device, a block device, a directory). */
int rc_open_regular(const char *path, FILE **f, struct stat *st, char *why, size_t cap);

/* Read a whole file into a NUL-terminated buffer (malloc'ed; *len excludes the NUL). Files over
 * `max_bytes` are refused. Returns 0, or -1 with *data NULL, one line in err (NULL allowed:
 * "path: cannot open: reason", "path: not a regular file (a FIFO)", "path: read error:
 * reason", "path: file is larger than N bytes", "path: out of memory reading the file") and
 * errno set: open's, EISDIR (a directory), EINVAL (another file that is not regular), EFBIG
 * (over max_bytes), ENOMEM, or EIO. */
int rc_read_file(const char *path, size_t max_bytes, char **data, size_t *len, rc_error *err);

/* rc_read_file for callers that write their own "cannot read PATH: reason": the file's bytes,
 * or NULL with errno set and the reason alone in `why` (NULL allowed): strerror(errno) where
 * it cannot be opened or read, "not a regular file (a FIFO)" and the like, "larger than N
 * bytes", or "out of memory". */
char *read_file(const char *path, size_t max, size_t *len, char *why, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
