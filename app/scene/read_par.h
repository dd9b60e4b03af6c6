/* read_par.h: a large model file read by all threads at once (each reads its own stretch with
 * pread), where one read() was the load's longest serial step after the parse went parallel:
 * the copy out of the page cache and the first touch of hundreds of megabytes of fresh pages.
 * The answer is rc_read_file's (read_file.h), byte for byte and message for message: small
 * files, and any file that changes size or fails to read while it is read, go through it. */
#ifndef RC_READ_PAR_H
#define RC_READ_PAR_H

#include "rc_error.h"

#include <stddef.h>

/* Files of at least this many bytes are read in parallel. */
#define RC_READ_PAR_MIN ((size_t)32 << 20)

int rc_read_file_par(const char *path, size_t max_bytes, char **data, size_t *len, rc_error *err);

#endif
