/* compactor.h: the compaction state the renderer holds for each stream (rc_renderer.comp,
 * .scomp), and what shade writes for it. compact.c alone fills and runs it (compact.h); the
 * renderer's state (renderer.h) and shade only read it. */
#ifndef RC_COMPACTOR_H
#define RC_COMPACTOR_H

#include "wavefront.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What shade writes for the compaction of a bounce. */
typedef enum rc_compact_input {
    RC_COMPACT_NOTHING = 0, /* `none`: dead paths stay in the stream and are skipped */
    RC_COMPACT_FLAGS,       /* flags[i] = 1 if stream slot i is still alive */
    RC_COMPACT_REMOVALS,    /* removed[0..k) = the stream slots whose paths ended */
    RC_COMPACT_BOTH         /* `auto`: both, so the library may take Redzone's O(k) moves where
                               few paths end and a flag algorithm elsewhere (sc_compact_any) */
} rc_compact_input;

/* 1 if shade writes the flag stencil / the removal list for this input. */
#define RC_WANTS_FLAGS(in)    ((in) == RC_COMPACT_FLAGS || (in) == RC_COMPACT_BOTH)
#define RC_WANTS_REMOVALS(in) ((in) == RC_COMPACT_REMOVALS || (in) == RC_COMPACT_BOTH)

typedef struct rc_compactor {
    sc_context *ctx; /* NULL for `none` */
    int algo;        /* an sc_algorithm, or -1 for `none` */
    rc_compact_input input;
    sc_options opt;
    const char *name; /* static: the table's name or "none" */
    /* auto in the device loops: the removed fraction per bounce from the previous frame's
       counts (the first frame has none: -1), and the choice each bounce's call made */
    double hint[RC_MAX_DEPTH];
    /* ... and the stream's length there (the call's bound is the whole wave; auto chooses for
       this length instead: sc_options.n_hint); 0 before the first frame */
    uint32_t live[RC_MAX_DEPTH];
    const char *chosen[RC_MAX_DEPTH];
    /* auto in the device loops, planned when shade is launched (rc_compact_plan): auto's choice
       offered both inputs, and whether the call gets the flags only (that choice is a flag
       algorithm, so shade writes no removal list: its atomics are not paid for nothing) */
    const char *planned[RC_MAX_DEPTH];
    uint8_t flags_only[RC_MAX_DEPTH];
    /* ... and whether the bounce is left uncompacted (rc_settings.tune.auto_skip_below) */
    uint8_t skip[RC_MAX_DEPTH];
} rc_compactor;

typedef struct rc_renderer rc_renderer;

#ifdef __cplusplus
}
#endif
#endif /* RC_COMPACTOR_H */
