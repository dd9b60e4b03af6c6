/* read_file.h: a whole file into memory, for the scene loader, the viewer's scripts and the tools
 * that read JSON. Only regular files, checked before reading: /dev/zero or a FIFO never ends,
 * and a file over the limit is refused by its size, not after filling memory with it. */
#ifndef COMPACT_READ_FILE_H
#define COMPACT_READ_FILE_H

#include "rc_error.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Read a whole file into a NUL-terminated buffer (malloc'ed; *len excludes the NUL). Files over
 * `max_bytes` are refused. Returns 0, or -1 with *data NULL, one line in err (NULL allowed:
 * "path: cannot open: reason", "path: read error: reason", "path: file is larger than N bytes",
 * "path: out of memory reading the file") and errno set: fopen's, EISDIR, EINVAL (not a
 * regular file), EFBIG (over max_bytes), ENOMEM, or EIO. */
int rc_read_file(const char *path, size_t max_bytes, char **data, size_t *len, rc_error *err);

/* rc_read_file without the message: the file's bytes, or NULL with errno set. */
char *read_file(const char *path, size_t max, size_t *len);

#ifdef __cplusplus
}
#endif
#endif
