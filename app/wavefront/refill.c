/* refill.c: regen's refill. After a bounce's compaction the stream holds its live paths at the
 * front; the slots after them, up to the pool, take the frame's next camera paths, in the order
 * generate uses (path g is sample g / num_pixels of pixel g % num_pixels), until every path of
 * the frame is issued. In indices mode a new path's record is one an ended path freed (shade
 * pushes them on a stack). With `none` (no compaction) new paths go into the dead slots where
 * they lie, in stream order: in place, the stream never reordered (Novák et al., "GPU Computing:
 * Dynamic Path Regeneration", 2010). A sample's randomness depends only on (pixel, sample,
 * bounce, seed): the image is the one every other schedule gives. */
#include "renderer.h"
#include "timing.h"
#ifdef RC_HAVE_CUDA_BACKEND
#include "cuda_backend.h"
#endif

/* Path g of the frame into *p, its sample slot cleared (CPU). */
static void generate_path(rc_renderer *r, uint32_t g, rc_path *p) {
    rc_path_generate(&r->view.camera, r->st.width, r->st.height, g % r->num_pixels, r->shade.sample,
                     g / r->num_pixels, r->st.seed, p);
    r->cpu.bufs.sample_rgb[g] = rc_v3s(0.0f);
}

/* New paths this refill adds: the room in the pool (compacting: after the kept paths; in
 * place: the dead slots), at most the paths not issued yet. The host-side loops know both. */
static uint32_t fresh_paths(const rc_renderer *r) {
    const uint32_t left = rc_frame_paths(r) - r->issued;
    const uint32_t room = r->comp.input == RC_COMPACT_NOTHING ? r->n - r->live : r->pool_now - r->n;
    return room < left ? room : left;
}

static void refill_cpu(rc_renderer *r, uint32_t fresh) {
    rc_cpu_stream *s = &r->cpu;
    if (r->comp.input == RC_COMPACT_NOTHING) {
        for (uint32_t i = 0, done = 0; done < fresh; i++) { /* dead slots in stream order */
            rc_path *p = rc_stream_path(r, i);
            if (rc_path_alive(p)) continue;
            generate_path(r, r->issued + done++, p);
        }
        return;
    }
    const long n = (long)fresh;
    const uint32_t kept = r->n, top = s->num_free;
    RC_OMP(parallel for schedule(static))
    for (long j = 0; j < n; j++) {
        uint32_t rec =
            s->bufs.queue ? s->bufs.free_recs[top - 1 - (uint32_t)j] : kept + (uint32_t)j;
        generate_path(r, r->issued + (uint32_t)j, &s->bufs.paths[rec]);
        if (s->bufs.queue) s->bufs.queue[kept + j] = rec;
    }
    s->num_free = top - fresh;
}

void rc_refill(rc_renderer *r, uint32_t bounce, rc_frame_stats *st) {
    if (!r->regen) return;
#ifdef RC_HAVE_CUDA_BACKEND
    if (r->st.backend == RC_BACKEND_CUDA) {
        /* the device loops count on the device (refill.cu); the host loop keeps its lengths */
        const uint32_t fresh = rc_cuda_of(r)->device_loop ? 0 : fresh_paths(r);
        rc_cuda_phase_begin(r);
        rc_cuda_refill(r, bounce);
        rc_cuda_phase_end(r, &st->generate_ms);
        r->issued += fresh;
        if (r->comp.input != RC_COMPACT_NOTHING) r->n += fresh;
        r->live += fresh;
        return;
    }
#endif
    double t0 = timing_now_ms();
    const uint32_t fresh = fresh_paths(r);
    refill_cpu(r, fresh);
    r->issued += fresh;
    if (r->comp.input != RC_COMPACT_NOTHING) r->n += fresh;
    r->live += fresh;
    st->bounce[bounce].refilled = fresh;
    st->generate_ms += timing_now_ms() - t0;
}

/* One path traced to its end from where it is (CPU): the phases' per-path functions in their
 * order, as the tail kernel runs them. */
static void finish_path(rc_renderer *r, rc_path *p, rc_shadow *sh) {
    while (rc_path_alive(p)) {
        rc_path_extend(&r->view, p);
        if (sh) sh->slot = 0u;
        rc_path_shade(&r->view, &r->shade, p, r->cpu.bufs.sample_rgb, sh);
        if (sh && (sh->slot & RC_PATH_ALIVE)) rc_shadow_trace(&r->view, sh, r->cpu.bufs.sample_rgb);
    }
}

void rc_cpu_tail(rc_renderer *r, uint32_t bounce, rc_frame_stats *st) {
    if (!r->regen) return;
    const long n = (long)r->n, left = (long)(rc_frame_paths(r) - r->issued);
    const uint32_t issued = r->issued;
    uint32_t alive = 0;
    RC_OMP(parallel for schedule(dynamic, 64) reduction(+ : alive))
    for (long i = 0; i < n + left; i++) {
        rc_shadow sh;
        if (i < n) {
            rc_path *p = rc_stream_path(r, (size_t)i);
            alive += (uint32_t)rc_path_alive(p);
            finish_path(r, p, r->nee ? &sh : NULL);
        } else {
            rc_path p;
            generate_path(r, issued + (uint32_t)(i - n), &p);
            finish_path(r, &p, r->nee ? &sh : NULL);
        }
    }
    r->issued = rc_frame_paths(r);
    r->n = r->live = 0;
    st->bounce[bounce].stream = (uint32_t)n;
    st->bounce[bounce].alive = alive;
}
