/* obj_internal.h: the two ways the OBJ reader parses, shared by obj.c, obj_chunks.c and the
 * test that holds them to the same result. Not part of obj.h's interface.
 *
 * rc_obj_parse_serial is the reference: one pass over the lines, every message
 * "file:line: what". rc_obj_parse_chunks splits the text at line ends into chunks of about
 * chunk_bytes and parses them on `threads` OpenMP threads; on any input the serial parse
 * refuses it hands the text to the serial parse, so the two give the same mesh or the same
 * error for every input, at every chunk size and thread count. */
#ifndef RC_OBJ_INTERNAL_H
#define RC_OBJ_INTERNAL_H

#include "obj.h"
#include "text_tokens.h"

/* Chunks the public readers use: enough of them for the threads to balance. */
#define RC_OBJ_CHUNK_BYTES ((size_t)1 << 20)

/* What a parse reads: read_mtl 0 ignores mtllib and usemtl; with read_mtl, dir NULL refuses
 * mtllib, and the MTL files take at most max_bytes less the OBJ's len. */
typedef struct rc_obj_source {
    const char *name;
    int read_mtl;
    const char *dir;
    size_t max_bytes;
    const char *text;
    size_t len;
} rc_obj_source;

int rc_obj_parse_serial(const rc_obj_source *src, rc_mesh *out, rc_error *err);
/* chunk_bytes 0: RC_OBJ_CHUNK_BYTES; threads 0: omp_get_max_threads(). */
int rc_obj_parse_chunks(const rc_obj_source *src, size_t chunk_bytes, int threads, rc_mesh *out,
                        rc_error *err);

/* The state mtllib and usemtl statements carry from one to the next, in file order. */
typedef struct rc_obj_mtl_state {
    size_t mtl_bytes;  /* what the MTL files' text may still take */
    uint32_t material; /* the last usemtl's, or RC_OBJ_NONE */
} rc_obj_mtl_state;

/* One `mtllib` (is_usemtl 0) or `usemtl` statement, [s, e) the line after its keyword and
 * without its comment, applied to m->mtl and *st as the serial parse does. 0, or -1 with err
 * set (its line number is 0: the chunked parse then reparses serially for the message). */
int rc_obj_mtl_statement(const rc_obj_source *src, int is_usemtl, const char *s, const char *e,
                         rc_obj_mtl_state *st, rc_mesh *m, rc_error *err);

/* 1 when triangle t (three indices into the coordinates v) has zero area: the reader drops it. */
int rc_obj_degenerate(const float *v, const uint32_t t[3]);

/* 1 for a statement a mesh reader accepts and ignores (groups, smoothing, curves). */
int rc_obj_ignored(rc_token kw);

#endif /* RC_OBJ_INTERNAL_H */
