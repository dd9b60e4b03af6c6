/* read_file.h: a whole file into memory, for the tools that read JSON. */
#ifndef COMPACT_READ_FILE_H
#define COMPACT_READ_FILE_H

#include <stddef.h>

/* The file's bytes, NUL-terminated (malloc'ed), *len of them; NULL with errno set (EFBIG when
 * the file holds more than `max` bytes, ENOMEM, EIO, or fopen's). */
char *read_file(const char *path, size_t max, size_t *len);

#endif
