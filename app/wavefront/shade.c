/* shade.c: shade every live path of the stream, and write what the compaction needs: a flag
 * per stream slot, the list of slots whose paths ended, or both (auto); with NEE the same for the
 * shadow stream, whose slot i belongs to the path in stream slot i, or, with the shadow rays
 * traced in shade (rc_shadows), each path's light sample traced here right after it is drawn:
 * its light adds to the sample in the same order as the shadow phase's would (after this
 * bounce's emission, before the next bounce's), so the image is the same. */
#include "renderer.h"
#include "timing.h"
#ifdef RC_HAVE_CUDA_BACKEND
#include "cuda_backend.h"
#endif

/* Stream slot i's entry of the compaction's input: its flag (1: kept), and, ended, its place in
 * the list of ended slots. The list's order depends on the threads; the image does not (rng.h). */
static inline void write_input(rc_compact_input input, uint8_t *flags, uint32_t *removed,
                               uint32_t *num_removed, long i, int kept) {
    if (RC_WANTS_FLAGS(input)) flags[i] = (uint8_t)kept;
    if (RC_WANTS_REMOVALS(input) && !kept) {
        uint32_t slot;
        RC_OMP(atomic capture)
        slot = (*num_removed)++;
        removed[slot] = (uint32_t)i;
    }
}

void rc_shade(rc_renderer *r, uint32_t bounce, rc_frame_stats *st) {
    r->sn = r->sstream ? r->n : 0;
    /* The counts stay on the device until compact reads them back. */
    RC_PHASE_ON_CUDA(r, &st->bounce[bounce].shade_ms, rc_cuda_shade(r, bounce));
    double t0 = timing_now_ms();
    rc_cpu_stream *s = &r->cpu;
    const rc_compact_input input = r->comp.input;
    const long n = (long)r->n;
    const int nee = r->sstream, traced = r->nee && !r->sstream;
    uint32_t alive = 0, kept = 0, removed = 0, shadows = 0, sremoved = 0;
    /* --sort-materials: one loop per material kind, over its contiguous slots (sort.c) */
    const int groups = r->sorter ? (int)RC_SORT_KEYS : 1;
    long end = 0;
    for (int g = 0; g < groups; g++) {
        const long begin = end;
        end = r->sorter ? begin + (long)r->groups[g] : n;
    RC_OMP(parallel for schedule(dynamic, 256) reduction(+ : alive, kept, shadows))
    for (long i = begin; i < end; i++) {
        rc_path *p = rc_stream_path(r, (size_t)i);
        rc_shadow local; /* a shadow ray traced here */
        rc_shadow *sh = nee ? &s->bufs.shadows[i] : traced ? &local : NULL;
        int k = 0;
        if (rc_path_alive(p)) {
            alive++;
            k = rc_path_shade(&r->view, &r->shade, p, s->bufs.sample_rgb, sh);
            kept += (uint32_t)k;
        } else if (sh) {
            sh->slot = 0u; /* `none`: a dead path's slot holds no shadow ray either */
        }
        if (traced && (local.slot & RC_PATH_ALIVE)) { /* any hit, as the shadow phase's */
            shadows++;
            rc_shadow_trace(&r->view, &local, s->bufs.sample_rgb);
        }
        if (s->bufs.free_recs && !k) { /* regen: the record is free for a new path (refill.c) */
            uint32_t top;
            RC_OMP(atomic capture)
            top = s->num_free++;
            s->bufs.free_recs[top] = s->bufs.queue[i];
        }
        write_input(input, s->bufs.flags, s->bufs.removed, &removed, i, k);
        if (!nee) continue;
        int ray = (sh->slot & RC_PATH_ALIVE) != 0;
        shadows += (uint32_t)ray;
        if (s->bufs.squeue) s->bufs.squeue[i] = (uint32_t)i;
        write_input(input, s->bufs.sflags, s->bufs.sremoved, &sremoved, i, ray);
    }
    }
    s->num_removed = removed;
    s->num_sremoved = sremoved;
    r->live = kept;
    r->shadows = shadows;
    rc_bounce_stats *b = &st->bounce[bounce];
    b->stream = r->n;
    b->alive = alive;
    b->kept = kept;
    b->shadow_in = r->nee ? r->n : 0; /* traced in shade: the slots that could draw a ray */
    b->shadow_kept = shadows;
    b->shade_ms += timing_now_ms() - t0;
}
