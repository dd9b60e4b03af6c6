/* traffic.c: the bytes each phase of a bounce moves through the stream's buffers, computed from
 * the record layouts (path.h) and the bounce's counts: a model of the loads and stores the
 * phases' code makes (shade.cu, extend.cu, shadow.cu), not a measurement. Counted: the path
 * records, the queue of path indices, the shadow records and their queue, the compaction's
 * inputs (flags, removal lists, the regen schedule's free records) and the compaction at the
 * floor of its input kind. Not counted: the scene (BVH, primitives, textures, lights), the
 * sample updates (a 12-byte read and write per light added, which a megakernel's accumulator
 * keeps in registers too), the sort phase, the refill, and the bounces of the tail kernel, which
 * keeps each path in registers as the megakernels do (docs/bench.md, "Stream traffic"). */
#include "compact.h"
#include "renderer.h"

#include <string.h>

/* The input kind of the algorithm that ran (a library name), or -1 for `none` and the tail. */
static int input_of(const char *algo) {
    const sc_algorithm_info *info = algo ? sc_algorithm_find(algo) : NULL;
    return info ? (int)info->input : -1;
}

/* A compaction of n elements of `elem` bytes of which `kept` stay, at the floor of its input:
 * a flag algorithm reads every flag and element and writes the kept ones (the library bench's
 * floor, compaction/bench); a removal list is read whole and at most min(removed, kept)
 * elements move from the tail into the holes (read and written). */
static uint64_t compaction_bytes(int input, uint64_t n, uint64_t kept, uint64_t elem) {
    const uint64_t removed = n - kept, moved = removed < kept ? removed : kept;
    if (input == SC_INPUT_FLAGS) return n + n * elem + kept * elem;
    if (input == SC_INPUT_REMOVAL_LIST) return removed * 4u + 2u * moved * elem;
    return 0;
}

/* What shade writes for one stream's compaction, whose call at this bounce took `input` (-1:
 * the bounce ran as `none`, nothing): its flags, its removal list (auto in the device loops:
 * only where the call takes one, rc_compact_plan). */
static uint64_t input_bytes(const rc_renderer *r, const rc_compactor *c, int input, uint64_t n,
                            uint64_t kept) {
    if (input < 0) return 0;
    uint64_t bytes = RC_WANTS_FLAGS(c->input) ? n : 0u;
    const int list_only_where_used = c->input == RC_COMPACT_BOTH &&
                                     r->st.backend == RC_BACKEND_CUDA &&
                                     r->st.frame_loop != RC_LOOP_HOST;
    if (RC_WANTS_REMOVALS(c->input) && (!list_only_where_used || input == SC_INPUT_REMOVAL_LIST))
        bytes += (n - kept) * 4u;
    return bytes;
}

void rc_frame_traffic(const rc_renderer *r, rc_frame_stats *st) {
    const int indices = r->st.mode == RC_MODE_INDICES;
    const uint64_t q = indices ? sizeof(uint32_t) : 0u; /* a queue entry read per slot */
    const uint64_t path = sizeof(rc_path), shadow = sizeof(rc_shadow);
    const uint64_t pelem = indices ? sizeof(uint32_t) : path,
                   selem = indices ? sizeof(uint32_t) : shadow;
    /* regen, indices, compacting: shade pushes an ended path's record on the free stack */
    const int free_recs = r->regen && indices && r->comp.input != RC_COMPACT_NOTHING;
    for (uint32_t b = 0; b < st->bounces && b < RC_MAX_DEPTH; b++) {
        rc_bounce_stats *o = &st->bounce[b];
        memset(o->bytes, 0, sizeof o->bytes);
        if (b >= st->tail_from || o->stream == 0) continue;
        const uint64_t n = o->stream, a = o->alive, k = o->kept;
        const int pin = input_of(o->algo);
        /* extend: each slot's flags; a live path's ray (origin and direction, the record's first
           32 bytes: the rest of its copy is dead code), its hit's t and primitive stored */
        o->bytes[RC_PHASE_EXTEND] = n * q + n * 4u + a * (32u + 8u);
        /* shade: a dead slot's flags, a live path's record (four 16-byte loads); the record back
           for a kept path, its last 16 bytes for one that ends; the compaction's input; regen's
           free records */
        uint64_t shade = n * q + (n - a) * 4u + a * path + k * path + (a - k) * 16u;
        shade += input_bytes(r, &r->comp, pin, n, k);
        if (free_recs && pin >= 0) shade += (n - k) * 4u;
        uint64_t shadows = 0, compact = compaction_bytes(pin, n, k, pelem);
        if (r->sstream) {
            const uint64_t sn = o->shadow_in, s = o->shadow_kept;
            const int sin = input_of(o->shadow_algo);
            /* the rays, an empty slot's marker where nothing compacts, the slot numbers */
            shade += s * shadow + (sin < 0 ? (sn - s) * 4u : 0u) + sn * q;
            shade += input_bytes(r, &r->scomp, sin, sn, s);
            compact += compaction_bytes(sin, sn, s, selem);
            /* shadow: every slot shade wrote where nothing compacted, else the rays */
            shadows = (sin < 0 ? sn : s) * (q + shadow);
        }
        o->bytes[RC_PHASE_SHADE] = shade;
        o->bytes[RC_PHASE_SHADOW] = shadows;
        o->bytes[RC_PHASE_COMPACT] = compact;
    }
}
