/* out_path.h: where an output file really goes, and whether it can go there, for both
 * command-line tools (`compact bench --json/--csv/--out`, and the app's `raycompact render
 * --out` and `raycompact bench --json`, which compiles out_path.c into its own tool).
 *
 * Every output is written to a temporary file beside it, then renamed over it, so that a reader
 * never sees half a file. When the output's name is a symbolic link (or a chain of them), the
 * file written is the link's target: the temporary file goes beside the target and is renamed
 * over the target, so the link stays a link. A link whose target does not exist yet, in a
 * directory that does, makes the target (as a shell's `>` does). A link whose target's directory
 * does not exist, and a target that is not a regular file (a directory, a device), are errors:
 * out_path_check says so before any work, and a write fails with nothing written. */
#ifndef SC_OUT_PATH_H
#define SC_OUT_PATH_H

#include "rc_error.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OUT_PATH_MAX       4096 /* bytes of a path, NUL included */
#define OUT_PATH_MAX_LINKS 40   /* links followed before giving up (ELOOP), as Linux does */

/* The file that writing `path` writes: `path` itself when it is not a symbolic link (or does
 * not exist), else the end of its chain of links, each relative target read from its link's
 * directory. Returns 0 with that path in out (cap bytes), or -1 with errno: ELOOP (more than
 * OUT_PATH_MAX_LINKS links), ENAMETOOLONG (longer than OUT_PATH_MAX or cap), or readlink's. */
int out_path_resolve(const char *path, char *out, size_t cap);

/* Whether `path` can be written, asked before any work: its resolved target (above) must be a
 * regular file or not exist, and a temporary file NAME.tmpXXXXXX must be creatable beside it
 * (one is made and removed at once: write permission alone says nothing for root or a
 * pseudo-filesystem such as /proc). Returns 0, or -1 with one line in why (cap bytes), such as
 * "cannot write in 'DIR': No such file or directory", after "'LINK' is a symbolic link to
 * 'TARGET': " when `path` is a link. Paths are quoted as they are: escape why before printing. */
int out_path_check(const char *path, char *why, size_t cap);

/* Write `len` bytes to a temporary file beside `path`, then rename it over `path`, so that a
 * failed write leaves any earlier file whole. Error: "path: cannot write: reason". The
 * temporary file is named path + ".tmpXXXXXX": RC_WRITE_SUFFIX_LEN bytes more. When `path` is
 * a symbolic link, its target is written and the link stays (above): a target that does not
 * exist is created, one in a directory that does not exist is an error. */
#define RC_WRITE_SUFFIX_LEN 10
int rc_write_file(const char *path, const char *data, size_t len, rc_error *err);

/* The directory part of a path ("scenes/a.json" -> "scenes", "a.json" -> ".", "/a" -> "/"),
 * into out (cap bytes). */
void rc_dirname(const char *path, char *out, size_t cap);

#ifdef __cplusplus
}
#endif
#endif /* SC_OUT_PATH_H */
