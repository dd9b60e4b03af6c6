/* mtl.h: a Wavefront MTL reader (the material libraries an OBJ names with `mtllib`) that
 * accepts any input without crashing: malformed files are reported as "file.mtl:line: what is
 * wrong".
 *
 * Read: `newmtl NAME` (unique in a file), `Kd`, `Ks`, `Ke` (r g b, or one value for all
 * three), `Ns` (0..1e6), `Ni` (0.01..10), `d` and `Tr` (= 1 - d), `illum` (0..10), `Tf` (r g b
 * in 0..1; the other forms, `Tf xyz` and `Tf spectral`, are accepted and ignored), the PBR
 * extension's `Pr` and `Pm` (0..1), `map_Kd`, `map_d` and `map_Bump` / `bump` / `norm` (option
 * flags before the file name are skipped with their arguments; an unknown option is an
 * error). Ka, the other maps and the PBR extension's other statements are accepted and
 * ignored; any other statement is an error. File names are relative to the MTL's folder:
 * absolute paths and ".." segments are refused. */
#ifndef RC_MTL_H
#define RC_MTL_H

#include "rc_error.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rc_mtl_material {
    char *name;
    float kd[3], ks[3], ke[3]; /* defaults 0.8 0.8 0.8, 0 0 0, 0 0 0 */
    float ns;                  /* Phong exponent, default 0 */
    float ni;                  /* index of refraction, default 1 */
    float d;                   /* dissolve (opacity), default 1 */
    int illum;                 /* illumination model, default 2 */
    int has_kd;                /* whether the file gave Kd */
    char *map_kd;              /* the diffuse map's path (the MTL's folder joined), or NULL */
    char *map_bump;            /* the bump or normal map's path, or NULL */
    int bump_is_normal;        /* 1: it came from `norm` (a normal map); 0: a bump (height) map */
    char *map_d;               /* the dissolve (alpha) map's path, or NULL */
    char *file;                /* the MTL file's name, for messages */
    size_t map_kd_line;        /* the line of map_Kd, for messages */
    size_t map_bump_line, map_d_line;
    int has_ns;         /* whether the file gave Ns */
    float tf[3];        /* transmission filter, default 1 1 1 */
    int has_tf;         /* whether the file gave Tf as r g b */
    float pr, pm;       /* PBR extension: roughness and metallic, defaults 0 */
    int has_pr, has_pm; /* whether the file gave them */
} rc_mtl_material;

typedef struct rc_mtl {
    rc_mtl_material *materials;
    size_t count, cap;
} rc_mtl;

#define RC_MTL_MAX_BYTES     ((size_t)64 << 20) /* an MTL file's text */
#define RC_MTL_MAX_MATERIALS 65536u             /* over all files of one OBJ */
#define RC_MTL_MAX_PATH      1024               /* a file name in an MTL (or mtllib) */

/* Parse MTL text (`len` bytes; NUL bytes are an error) named `name` in messages, appending
 * its materials to *out (rc_mtl zeroed to start). File names are joined to `dir`. Returns 0,
 * or -1 with err set and *out as it was. */
int rc_mtl_parse(const char *name, const char *dir, const char *text, size_t len, rc_mtl *out,
                 rc_error *err);
/* Read (a regular file of at most max_bytes, capped at RC_MTL_MAX_BYTES) and parse a file;
 * its names are relative to its folder. */
int rc_mtl_load(const char *path, size_t max_bytes, rc_mtl *out, rc_error *err);
void rc_mtl_free(rc_mtl *m);
/* The index of the first material named name[0..n), or -1. */
long rc_mtl_find(const rc_mtl *m, const char *name, size_t n);

/* A file name name[0..n) relative to `dir`: NULL with the reason in `why` when it is empty,
 * too long, absolute (or has a drive letter), has a NUL, or a ".." segment (a backslash counts
 * as a slash: Windows exporters write them); else
 * "dir/name" (malloc'ed; NULL with "out of memory"). */
char *rc_mtl_join(const char *dir, const char *name, size_t n, char *why, size_t cap);

#ifdef __cplusplus
}
#endif
#endif /* RC_MTL_H */
