/* compact.h: the only place that chooses a compaction algorithm. It turns the name the user
 * gave ("none" or any library algorithm) into what shade must produce (a flag stencil, a
 * removal list, or nothing) and runs the library call after each bounce. */
#ifndef RC_COMPACT_H
#define RC_COMPACT_H

#include "compactor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The static name of the algorithm the last call on `c` ran (auto: its choice), or c->name. */
const char *rc_compact_chosen(const rc_compactor *c);

#define RC_COMPACT_NONE_NAME "none"

/* Resolve `name` for `backend` and check, with an empty call, that the backend implements it.
 * Errors: "unknown algorithm 'x' (valid: none, serial, ...)", "... not implemented ...". */
int rc_compactor_init(rc_compactor *c, const char *name, rc_backend backend, size_t tile,
                      int library_timing, rc_error *err);
void rc_compactor_free(rc_compactor *c);
/* 0 if `name` works on `backend` (rc_compactor_init succeeds), else -1 with its error. */
int rc_compact_check(const char *name, rc_backend backend, rc_error *err);

/* The names `--algos all` means on a backend, "none" first, then the library's table order:
 * every algorithm the library lists for the backend (the caller skips those whose
 * rc_compactor_init fails). Returns how many; writes up to cap. */
size_t rc_compact_names(rc_backend backend, const char **names, size_t cap);
/* A comma-separated list of every name, for messages. */
const char *rc_compact_all_names(void);
/* The same list for a --help text that prints it from column `first_col` on: folded after a
 * comma so that no line passes 100 columns, each next line indented by 24 spaces, the column of
 * the options' help. A static buffer, rewritten by the next call. */
const char *rc_compact_names_help(int first_col);

/* compact: drop the paths shade ended from the stream of bounce `bounce`. */
int rc_compact(rc_renderer *r, uint32_t bounce, rc_frame_stats *st, rc_error *err);
/* compact the shadow stream of bounce `bounce`: drop the slots that hold no shadow ray (NEE
 * only; `none` leaves them for the shadow phase to skip). Its time adds to compact_ms. */
int rc_compact_shadows(rc_renderer *r, uint32_t bounce, rc_frame_stats *st, rc_error *err);

/* CUDA device loops with auto: before shade is launched for `bounce`, ask auto (offered flags
 * and list, with this frame's hints) what each stream's call will run; a stream whose call does
 * not need the removal list gets the flags only, and shade writes no list for it. A bounce whose
 * path stream held fewer than rc_settings.tune.auto_skip_below paths in the previous frame is not
 * compacted at all (both streams as for `none`). Returns what
 * shade must write for the path stream (RC_COMPACT_FLAGS then, else r->comp.input, as for every
 * other algorithm and loop), and in *shadow_in the same for the shadow stream. */
rc_compact_input rc_compact_plan(rc_renderer *r, uint32_t bounce, rc_compact_input *shadow_in);
/* 1 if stream c runs `bounce` as `none` does, with no compaction: the algorithm is `none`, or
 * auto's plan skipped the bounce (rc_settings.tune.auto_skip_below: rc_compact_plan returned
 * RC_COMPACT_NOTHING for it). */
int rc_compact_as_none(const rc_compactor *c, uint32_t bounce);

/* After a frame's counts came back: each bounce's removed fraction becomes the next frame's
 * hint for auto (the device loops, where lengths stay on the device). */
void rc_compact_learn(rc_renderer *r, const rc_frame_stats *st);

#ifdef __cplusplus
}
#endif
#endif /* RC_COMPACT_H */
