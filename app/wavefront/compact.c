/* compact.c: the compaction phase, and the one place that picks the library algorithm. */
#include "compact.h"
#include "renderer.h"
#include "timing.h"
#ifdef RC_HAVE_CUDA_BACKEND
#include "cuda_backend.h"
#endif

#include <stdio.h>
#include <string.h>

static const sc_algorithm_info *find_algo(const char *name) {
    return strcmp(name, RC_COMPACT_NONE_NAME) == 0 ? NULL : sc_algorithm_find(name);
}

const char *rc_compact_all_names(void) {
    static char all[512];
    if (all[0]) return all;
    size_t pos = (size_t)snprintf(all, sizeof all, "%s", RC_COMPACT_NONE_NAME);
    for (int a = 0; a < SC_ALGO_COUNT && pos < sizeof all; a++)
        pos += (size_t)snprintf(all + pos, sizeof all - pos, ", %s",
                                sc_algorithm_get((sc_algorithm)a)->name);
    return all;
}

const char *rc_compact_names_help(int first_col) {
    static char out[1024];
    const char *all = rc_compact_all_names();
    size_t pos = 0, col = (size_t)first_col;
    out[0] = 0;
    while (*all && pos + 32 < sizeof out) {
        size_t len = strcspn(all, ","); /* one name, its comma after it */
        size_t word = len + (all[len] == ',');
        if (col > 24 && col + 1 + word > 100) {
            pos += (size_t)snprintf(out + pos, sizeof out - pos, "\n%24s", "");
            col = 24;
        } else if (pos > 0) {
            out[pos++] = ' ';
            col++;
        }
        pos += (size_t)snprintf(out + pos, sizeof out - pos, "%.*s", (int)word, all);
        col += word;
        all += word;
        while (*all == ' ') all++;
    }
    return out;
}

size_t rc_compact_names(rc_backend backend, const char **names, size_t cap) {
    sc_backend b = backend == RC_BACKEND_CUDA ? SC_BACKEND_CUDA : SC_BACKEND_CPU;
    size_t n = 0;
    if (n < cap) names[n] = RC_COMPACT_NONE_NAME;
    n++;
    for (int a = 0; a < SC_ALGO_COUNT; a++) {
        const sc_algorithm_info *info = sc_algorithm_get((sc_algorithm)a);
        if (!(info->backends & (1u << b))) continue;
        if (n < cap) names[n] = info->name;
        n++;
    }
    return n;
}

/* An empty call (n = 0) tells whether the backend implements the algorithm in this build. */
static sc_status probe(const rc_compactor *c) {
    size_t kept;
    void *result;
    if (c->input == RC_COMPACT_BOTH)
        return sc_compact_any(c->ctx, (sc_algorithm)c->algo, NULL, NULL, NULL, 0, 4, NULL, 0,
                              &c->opt, &kept, &result);
    if (c->input == RC_COMPACT_FLAGS)
        return sc_compact_flagged(c->ctx, (sc_algorithm)c->algo, NULL, NULL, NULL, 0, 4, &c->opt,
                                  &kept);
    return sc_remove_indices(c->ctx, (sc_algorithm)c->algo, NULL, 0, 4, NULL, 0, &c->opt, &kept);
}

int rc_compactor_init(rc_compactor *c, const char *name, rc_backend backend, size_t tile,
                      int library_timing, rc_error *err) {
    memset(c, 0, sizeof *c);
    c->algo = -1;
    c->name = RC_COMPACT_NONE_NAME;
    sc_options_init(&c->opt);
    for (int b = 0; b < RC_MAX_DEPTH; b++) c->hint[b] = -1.0;
    if (strcmp(name, RC_COMPACT_NONE_NAME) == 0) return 0;
    const sc_algorithm_info *info = find_algo(name);
    if (!info)
        return rc_fail(err, "unknown algorithm '%s' (valid: %s)", name, rc_compact_all_names());
    sc_backend b = backend == RC_BACKEND_CUDA ? SC_BACKEND_CUDA : SC_BACKEND_CPU;
    c->algo = (int)info->id;
    c->name = info->name;
    c->input = info->input == SC_INPUT_REMOVAL_LIST ? RC_COMPACT_REMOVALS
               : info->input == SC_INPUT_ANY        ? RC_COMPACT_BOTH
                                                    : RC_COMPACT_FLAGS;
    if (tile) c->opt.tile = tile;
    c->opt.timing = library_timing;
    sc_status s = sc_context_create(b, &c->ctx);
    if (s != SC_OK)
        return rc_fail(err, "algorithm '%s': %s backend: %s", name, sc_backend_name(b),
                       sc_status_string(s));
    s = probe(c);
    if (s != SC_OK) {
        /* auto's table ($SC_POLICY) unreadable or malformed: the library's line names it */
        if (s == SC_ERR_POLICY && *sc_policy_error(c->ctx))
            rc_fail(err, "algorithm '%s': %s", name, sc_policy_error(c->ctx));
        else if (s == SC_ERR_UNSUPPORTED)
            rc_fail(err, "algorithm '%s' is not implemented on the %s backend", name,
                    sc_backend_name(b));
        else
            rc_fail(err, "algorithm '%s': %s", name, sc_status_string(s));
        rc_compactor_free(c);
        return -1;
    }
    return 0;
}

void rc_compactor_free(rc_compactor *c) {
    if (!c) return;
    sc_context_destroy(c->ctx);
    c->ctx = NULL;
}

int rc_compact_check(const char *name, rc_backend backend, rc_error *err) {
    rc_compactor c;
    if (rc_compactor_init(&c, name, backend, 0, 0, err) != 0) return -1;
    rc_compactor_free(&c);
    return 0;
}

const char *rc_compact_chosen(const rc_compactor *c) {
    sc_choice ch;
    if (!c->ctx || sc_last_choice(c->ctx, &ch) != SC_OK) return c->name;
    const sc_algorithm_info *info = sc_algorithm_get(ch.algo);
    return info ? info->name : c->name;
}

static void swap_ptr(void **a, void **b) {
    void *t = *a;
    *a = *b;
    *b = t;
}

/* What one library call compacts: a stream of n elements (path or shadow records in payload
 * mode, slot numbers in indices mode), its flags or removal list, and the buffer a flagged
 * compaction writes to (swapped in after). */
typedef struct stream_ref {
    void **data, **alt;
    size_t n, elem_size;
    const uint8_t *flags;
    const uint32_t *removed;
    size_t num_removed;
} stream_ref;

/* The path stream in buffers b (either backend's): n entries, num_removed of them listed. */
static stream_ref path_stream(const rc_renderer *r, rc_stream_bufs *b, size_t n,
                              size_t num_removed) {
    const int payload = r->st.mode == RC_MODE_PAYLOAD;
    stream_ref sr = {payload ? (void **)&b->paths : (void **)&b->queue,
                     payload ? (void **)&b->paths_alt : (void **)&b->queue_alt,
                     n,
                     payload ? sizeof(rc_path) : sizeof(uint32_t),
                     b->flags,
                     b->removed,
                     num_removed};
    return sr;
}

/* The shadow stream in buffers b, as path_stream. */
static stream_ref shadow_stream(const rc_renderer *r, rc_stream_bufs *b, size_t n,
                                size_t num_removed) {
    const int payload = r->st.mode == RC_MODE_PAYLOAD;
    stream_ref sr = {payload ? (void **)&b->shadows : (void **)&b->squeue,
                     payload ? (void **)&b->shadows_alt : (void **)&b->squeue_alt,
                     n,
                     payload ? sizeof(rc_shadow) : sizeof(uint32_t),
                     b->sflags,
                     b->sremoved,
                     num_removed};
    return sr;
}

/* auto: flags and the list both, exact k; the survivors are in *alt when auto took a flag
 * algorithm (out of place), in *data when it took a removal-list one (in place). */
static sc_status compact_any(const rc_compactor *c, stream_ref sr, size_t n, size_t k,
                             const sc_options *opt, size_t *kept) {
    void *result = NULL;
    sc_status st = sc_compact_any(c->ctx, (sc_algorithm)c->algo, *sr.data, sr.flags, *sr.alt, n,
                                  sr.elem_size, sr.removed, k, opt, kept, &result);
    if (st == SC_OK && result == *sr.alt) swap_ptr(sr.data, sr.alt);
    return st;
}

/* One library call on a CPU stream; *kept = the new stream length. */
static sc_status compact_cpu(const rc_compactor *c, stream_ref sr, size_t *kept) {
    if (c->input == RC_COMPACT_BOTH) return compact_any(c, sr, sr.n, sr.num_removed, &c->opt, kept);
    if (c->input == RC_COMPACT_REMOVALS)
        return sc_remove_indices(c->ctx, (sc_algorithm)c->algo, *sr.data, sr.n, sr.elem_size,
                                 sr.removed, sr.num_removed, &c->opt, kept);
    sc_status st = sc_compact_flagged(c->ctx, (sc_algorithm)c->algo, *sr.data, sr.flags, *sr.alt,
                                      sr.n, sr.elem_size, &c->opt, kept);
    if (st == SC_OK) swap_ptr(sr.data, sr.alt);
    return st;
}

#ifdef RC_HAVE_CUDA_BACKEND
/* The device side of a stream_ref: the path stream, or the shadow stream, of `bounce`. The
 * new length goes to the counter on the device that the next launches read (d_kept): the
 * call does not wait for the GPU. In the device loops the length (and a removal list's k)
 * are read on the device too (d_n, d_k): the call is sized for the whole wave, as the
 * library's storage was at rc_compact_warm, and can be captured. */
typedef struct device_ref {
    stream_ref sr;
    uint32_t *d_kept;
    const uint32_t *d_n, *d_k;
} device_ref;

static device_ref path_stream_cuda(rc_renderer *r, uint32_t bound, uint32_t bounce,
                                   uint32_t num_removed) {
    rc_cuda *d = rc_cuda_of(r);
    device_ref dr = {path_stream(r, &d->bufs, bound, num_removed),
                     /* regen: the refill appends after the kept paths (refill.cu) */
                     r->regen ? &d->counts[bounce].compacted : &d->counts[bounce + 1].stream,
                     &d->counts[bounce].stream, &d->counts[bounce].removed};
    return dr;
}

/* The bounds of this frame's calls (the stream's slots a phase may hold): the path stream's
 * rc_cuda_bound; the shadow stream's the path stream shade walked (r->sn in the host loop). */
static uint32_t path_bound(rc_renderer *r) {
    return rc_cuda_bound(r);
}
static uint32_t shadow_bound(rc_renderer *r) {
    return rc_cuda_of(r)->device_loop ? rc_cuda_bound(r) : r->sn;
}

/* The shadow stream of `bounce`: as long as the path stream shade walked (r->sn in the host
 * loop); its kept count is the shadow phase's length. */
static device_ref shadow_stream_cuda(rc_renderer *r, uint32_t bound, uint32_t bounce,
                                     uint32_t num_removed) {
    rc_cuda *d = rc_cuda_of(r);
    device_ref dr = {shadow_stream(r, &d->bufs, bound, num_removed),
                     &d->counts[bounce].shadow_stream, &d->counts[bounce].stream,
                     &d->counts[bounce].shadow_removed};
    return dr;
}

/* auto's hints for `bounce` of a call bounded by n: the stream length the previous frame had
 * there (opt->n_hint) and the removed count as a fraction of it (opt->removed_hint); unknown
 * before the first frame. */
static void set_hints(const rc_compactor *c, uint32_t bounce, size_t n, sc_options *opt) {
    opt->n_hint = opt->removed_hint = SC_UNKNOWN_COUNT;
    if (bounce >= RC_MAX_DEPTH || c->hint[bounce] < 0.0) return;
    size_t live = c->live[bounce] && c->live[bounce] < n ? c->live[bounce] : n;
    opt->n_hint = live;
    opt->removed_hint = (size_t)(c->hint[bounce] * (double)live + 0.5);
}

/* One library call on a device stream. In the device loops auto cannot see the lengths (they
 * stay on the device): it gets this bounce's length and removed fraction in the previous frame
 * (c->live, c->hint, rc_compact_learn; set_hints); the first frame has none. */
static sc_status compact_cuda(rc_renderer *r, rc_compactor *c, device_ref dr, uint32_t bounce) {
    sc_options opt = c->opt;
    opt.d_kept = dr.d_kept;
    size_t n = dr.sr.n, k = dr.sr.num_removed;
    if (rc_cuda_of(r)->device_loop) {
        opt.d_n = dr.d_n;
        opt.d_k = dr.d_k;
        k = n;
        set_hints(c, bounce, n, &opt);
    }
    /* shade appends each empty slot once, so the list is distinct and in range by construction */
    opt.trusted_list = 1;
    sc_status st;
    if (c->input == RC_COMPACT_BOTH && rc_cuda_of(r)->device_loop && bounce < RC_MAX_DEPTH &&
        c->flags_only[bounce]) {
        stream_ref sr = dr.sr; /* rc_compact_plan: shade wrote no list for this bounce */
        sr.removed = NULL;
        opt.d_k = NULL;
        st = compact_any(c, sr, n, 0, &opt, NULL);
    } else if (c->input == RC_COMPACT_BOTH)
        st = compact_any(c, dr.sr, n, k, &opt, NULL);
    else if (c->input == RC_COMPACT_REMOVALS)
        st = sc_remove_indices(c->ctx, (sc_algorithm)c->algo, *dr.sr.data, n, dr.sr.elem_size,
                               dr.sr.removed, k, &opt, NULL);
    else if ((st = sc_compact_flagged(c->ctx, (sc_algorithm)c->algo, *dr.sr.data, dr.sr.flags,
                                      *dr.sr.alt, n, dr.sr.elem_size, &opt, NULL)) == SC_OK)
        swap_ptr(dr.sr.data, dr.sr.alt);
    if (st == SC_OK && bounce < RC_MAX_DEPTH) c->chosen[bounce] = rc_compact_chosen(c);
    return st;
}

/* auto may take any algorithm of the backend, on flags or on the list, at any bounce: the
 * storage of each is reserved for the bound now, so no frame's call allocates (or frees what a
 * captured graph holds). The policy may also pick a tile: the smallest tile's storage (the most
 * tiles) is reserved too. */
static sc_status reserve_auto(const rc_compactor *c, device_ref dr) {
    if (c->input != RC_COMPACT_BOTH) return SC_OK;
    sc_options opt = c->opt;
    opt.d_kept = dr.d_kept;
    opt.d_n = dr.d_n;
    opt.d_k = dr.d_k;
    opt.trusted_list = 1;
    sc_status s =
        sc_context_reserve(c->ctx, SC_ALGO_AUTO, SC_INPUT_ANY, dr.sr.n, dr.sr.elem_size, &opt);
    opt.tile = SC_TILE_MIN;
    if (s == SC_OK)
        s = sc_context_reserve(c->ctx, SC_ALGO_AUTO, SC_INPUT_ANY, dr.sr.n, dr.sr.elem_size, &opt);
    return s;
}

/* auto's choice for `bounce` of stream dr, offered flags and list, with this frame's hint; NULL
 * if it cannot choose. */
static const char *preview_any(const rc_compactor *c, device_ref dr, uint32_t bounce) {
    sc_options opt = c->opt;
    set_hints(c, bounce, dr.sr.n, &opt);
    sc_choice ch;
    if (sc_auto_preview(c->ctx, dr.sr.n, dr.sr.elem_size, SC_INPUT_ANY, &opt, &ch) != SC_OK)
        return NULL;
    return sc_algorithm_get(ch.algo)->name;
}

/* 1 if auto leaves `bounce` uncompacted in this frame (rc_settings.tune.auto_skip_below): the path
 * stream at this bounce or an earlier one held fewer paths than that in the previous frame.
 * Once one bounce is skipped, every later one is: a later call would read the length the skip
 * left (shade's, the stream walked) where a compaction's kept count belongs. Not before a
 * frame's counts are known, and never for a fixed algorithm. */
static int plan_skip(const rc_renderer *r, uint32_t bounce) {
    const rc_compactor *c = &r->comp;
    /* regen: a compaction frees slots that new paths fill while samples remain; once they are
       issued the pool drains into the tail, which takes the short streams (tail.c) */
    if (c->input != RC_COMPACT_BOTH || bounce >= RC_MAX_DEPTH || r->regen) return 0;
    for (uint32_t b = 0; b <= bounce; b++)
        if (c->hint[b] >= 0.0 && c->live[b] < r->st.tune.auto_skip_below) return 1;
    return 0;
}

/* 1 if auto, with this frame's hints, would choose another algorithm at some bounce than the
 * plan of the captured calls (c->planned, rc_compact_plan) did, or skip another bounce. The
 * bounces the tail kernel runs (r->tail_from on) have no call. */
static int choice_changed(rc_renderer *r, const rc_compactor *c, device_ref dr) {
    if (c->input != RC_COMPACT_BOTH) return 0;
    for (uint32_t b = 0; b < r->st.max_depth && b < r->tail_from && b < RC_MAX_DEPTH; b++) {
        const int skip = plan_skip(r, b);
        if (skip != c->skip[b]) return 1;
        if (skip) continue;
        const char *now = preview_any(c, dr, b);
        if (!now || !c->planned[b] || strcmp(now, c->planned[b]) != 0) return 1;
    }
    return 0;
}

/* 1 if the call of stream dr at `bounce` needs the removal list (auto's plan takes a
 * removal-list algorithm there, or cannot tell). The table's gain of that choice
 * (sc_choice.gain) is not weighed against the list's cost in shade yet. */
static int plan_needs_list(rc_compactor *c, device_ref dr, uint32_t bounce) {
    const char *name = preview_any(c, dr, bounce);
    c->planned[bounce] = name;
    const sc_algorithm_info *info = name ? sc_algorithm_find(name) : NULL;
    return !info || info->input != SC_INPUT_FLAGS;
}

rc_compact_input rc_compact_plan(rc_renderer *r, uint32_t bounce, rc_compact_input *shadow_in) {
    rc_compact_input in = r->comp.input, sin = r->sstream ? r->scomp.input : in;
    if (bounce < RC_MAX_DEPTH) r->comp.skip[bounce] = r->scomp.skip[bounce] = 0;
    if (rc_cuda_of(r)->device_loop && plan_skip(r, bounce)) {
        /* both streams as for `none`: shade sets their lengths, the next phases skip the
         * ended paths and the empty shadow slots */
        r->comp.skip[bounce] = 1;
        r->comp.chosen[bounce] = RC_COMPACT_NONE_NAME;
        if (r->sstream && sin != RC_COMPACT_NOTHING) {
            r->scomp.skip[bounce] = 1;
            r->scomp.chosen[bounce] = RC_COMPACT_NONE_NAME;
            sin = RC_COMPACT_NOTHING;
        }
        *shadow_in = sin;
        return RC_COMPACT_NOTHING;
    }
    if (rc_cuda_of(r)->device_loop && bounce < RC_MAX_DEPTH) {
        if (in == RC_COMPACT_BOTH) {
            int list = plan_needs_list(&r->comp, path_stream_cuda(r, path_bound(r), 0, 0), bounce);
            r->comp.flags_only[bounce] = (uint8_t)!list;
            if (!list) in = RC_COMPACT_FLAGS;
        }
        if (r->sstream && sin == RC_COMPACT_BOTH) {
            int list =
                plan_needs_list(&r->scomp, shadow_stream_cuda(r, shadow_bound(r), 0, 0), bounce);
            r->scomp.flags_only[bounce] = (uint8_t)!list;
            if (!list) sin = RC_COMPACT_FLAGS;
        }
    }
    *shadow_in = sin;
    return in;
}

int rc_compact_choice_changed(rc_renderer *r) {
    return rc_tail_plan(r) != r->tail_from || /* every algorithm, `none` too */
           choice_changed(r, &r->comp, path_stream_cuda(r, path_bound(r), 0, 0)) ||
           (r->sstream &&
            choice_changed(r, &r->scomp, shadow_stream_cuda(r, shadow_bound(r), 0, 0)));
}

int rc_compact_as_none(const rc_compactor *c, uint32_t bounce) {
    return c->input == RC_COMPACT_NOTHING || (bounce < RC_MAX_DEPTH && c->skip[bounce]);
}

int rc_compact_has_hints(const rc_renderer *r) {
    return r->comp.hint[0] >= 0.0;
}

int rc_compact_warm(rc_renderer *r, rc_error *err) {
    if (r->comp.input == RC_COMPACT_NOTHING) return 0;
    /* the bound of every later call: the whole stream (the device loops only, whose calls
       are bounded by the frame's pool, at most num_paths) */
    const uint32_t all = (uint32_t)r->num_paths;
    const device_ref paths = path_stream_cuda(r, all, 0, 0),
                     shadows = shadow_stream_cuda(r, all, 0, 0);
    sc_status s = reserve_auto(&r->comp, paths);
    if (s == SC_OK && r->sstream) s = reserve_auto(&r->scomp, shadows);
    if (s == SC_OK) s = compact_cuda(r, &r->comp, paths, RC_MAX_DEPTH);
    if (s == SC_OK && r->sstream) s = compact_cuda(r, &r->scomp, shadows, RC_MAX_DEPTH);
    if (s != SC_OK)
        return rc_fail(err, "compaction '%s' on %zu paths: %s", r->comp.name, r->num_paths,
                       sc_status_string(s));
    return rc_cuda_sync(r, "in the compaction's first call", err);
}

/* One timed library call on the device. */
static int compact_timed(rc_renderer *r, uint32_t bounce, uint32_t num_removed, rc_frame_stats *st,
                         rc_error *err) {
    rc_cuda_phase_begin(r);
    sc_status s =
        compact_cuda(r, &r->comp, path_stream_cuda(r, path_bound(r), bounce, num_removed), bounce);
    rc_cuda_phase_end(r, &st->bounce[bounce].compact_ms);
    if (s != SC_OK)
        return rc_fail(err, "compaction '%s' failed at bounce %u: %s", r->comp.name, bounce,
                       sc_status_string(s));
    if (r->comp.opt.timing) rc_stats_add_library(st, r->comp.ctx);
    return 0;
}

/* CUDA: compact on the device and read shade's counters back (the next launches' size). A
 * flag stencil needs only the stream length, which the host knows, so its compaction is
 * queued first and the counters are read after it: the GPU runs shade and compaction back to
 * back, and the compaction's time is the GPU's, not the host's. A removal list's length k is
 * known only once shade has run: the counters are read first. */
static int compact_phase_cuda(rc_renderer *r, uint32_t bounce, rc_frame_stats *st, rc_error *err) {
    const rc_compact_input input = r->comp.input;
    /* device loops: nothing comes back; rc_cuda_frame_end reads the counts once */
    if (rc_cuda_of(r)->device_loop)
        return rc_compact_as_none(&r->comp, bounce) ? 0 : compact_timed(r, bounce, 0, st, err);
    if (input == RC_COMPACT_FLAGS && compact_timed(r, bounce, 0, st, err) != 0) return -1;
    /* a removal list (alone, or beside the flags for auto) needs its length first */
    if (rc_cuda_read_counts(r, bounce, err) != 0) return -1;
    const rc_cuda_counts *h = &rc_cuda_of(r)->h_counts[bounce];
    rc_bounce_stats *b = &st->bounce[bounce];
    b->stream = r->n;
    b->alive = h->alive;
    b->kept = h->kept;
    r->live = h->kept;
    if (input == RC_COMPACT_NOTHING) return 0;
    if (RC_WANTS_REMOVALS(input)) {
        if (h->removed != r->n - h->kept)
            return rc_fail(err, "shade listed %u ended paths at bounce %u, want %u", h->removed,
                           bounce, r->n - h->kept);
        if (compact_timed(r, bounce, h->removed, st, err) != 0) return -1;
    }
    r->n = h->kept;
    return 0;
}

/* CUDA: the shadow stream's call. The host loop has read this bounce's counts already
 * (compact_phase_cuda): the removal list's length is known. */
static int compact_shadows_cuda(rc_renderer *r, uint32_t bounce, rc_frame_stats *st,
                                rc_error *err) {
    rc_cuda *d = rc_cuda_of(r);
    if (d->device_loop && rc_compact_as_none(&r->scomp, bounce)) return 0;
    uint32_t k = d->device_loop ? 0 : d->h_counts[bounce].shadow_removed;
    if (!d->device_loop) {
        r->shadows = d->h_counts[bounce].shadows;
        if (RC_WANTS_REMOVALS(r->scomp.input) && k != r->sn - r->shadows)
            return rc_fail(err, "shade listed %u empty shadow slots at bounce %u, want %u", k,
                           bounce, r->sn - r->shadows);
        if (r->sn == 0) return 0;
    }
    rc_cuda_phase_begin(r);
    sc_status s =
        compact_cuda(r, &r->scomp, shadow_stream_cuda(r, shadow_bound(r), bounce, k), bounce);
    rc_cuda_phase_end(r, &st->bounce[bounce].compact_ms);
    if (s != SC_OK)
        return rc_fail(err, "compaction '%s' of the shadow rays failed at bounce %u: %s",
                       r->scomp.name, bounce, sc_status_string(s));
    if (r->scomp.opt.timing) rc_stats_add_library(st, r->scomp.ctx);
    return 0;
}
#endif

int rc_compact(rc_renderer *r, uint32_t bounce, rc_frame_stats *st, rc_error *err) {
#ifdef RC_HAVE_CUDA_BACKEND
    if (r->st.backend == RC_BACKEND_CUDA) return compact_phase_cuda(r, bounce, st, err);
#endif
    double t0 = timing_now_ms();
    if (r->comp.input == RC_COMPACT_NOTHING) {
        /* `none`: the stream keeps its length; extend and shade skip the ended paths. */
        st->bounce[bounce].compact_ms += timing_now_ms() - t0;
        return 0;
    }
    size_t kept = 0;
    stream_ref sr = path_stream(r, &r->cpu.bufs, r->n, r->cpu.num_removed);
    sc_status s = compact_cpu(&r->comp, sr, &kept);
    if (s != SC_OK)
        return rc_fail(err, "compaction '%s' failed at bounce %u: %s", r->comp.name, bounce,
                       sc_status_string(s));
    r->comp.chosen[bounce] = rc_compact_chosen(&r->comp);
    if (kept != r->live)
        return rc_fail(err, "compaction '%s' kept %zu paths at bounce %u, shade kept %u",
                       r->comp.name, kept, bounce, r->live);
    r->n = (uint32_t)kept;
    st->bounce[bounce].compact_ms += timing_now_ms() - t0;
    if (r->comp.opt.timing) rc_stats_add_library(st, r->comp.ctx);
    return 0;
}

int rc_compact_shadows(rc_renderer *r, uint32_t bounce, rc_frame_stats *st, rc_error *err) {
    if (!r->sstream || r->scomp.input == RC_COMPACT_NOTHING) return 0;
#ifdef RC_HAVE_CUDA_BACKEND
    if (r->st.backend == RC_BACKEND_CUDA) return compact_shadows_cuda(r, bounce, st, err);
#endif
    double t0 = timing_now_ms();
    size_t kept = 0;
    stream_ref sr = shadow_stream(r, &r->cpu.bufs, r->sn, r->cpu.num_sremoved);
    sc_status s = compact_cpu(&r->scomp, sr, &kept);
    if (s != SC_OK)
        return rc_fail(err, "compaction '%s' of the shadow rays failed at bounce %u: %s",
                       r->scomp.name, bounce, sc_status_string(s));
    r->scomp.chosen[bounce] = rc_compact_chosen(&r->scomp);
    if (kept != r->shadows)
        return rc_fail(err, "compaction '%s' kept %zu shadow rays at bounce %u, shade wrote %u",
                       r->scomp.name, kept, bounce, r->shadows);
    st->bounce[bounce].compact_ms += timing_now_ms() - t0;
    if (r->scomp.opt.timing) rc_stats_add_library(st, r->scomp.ctx);
    return 0;
}

/* The removed fraction of one stream at one bounce; -1 when the stream was empty. */
static double fraction(uint32_t in, uint32_t kept) {
    return in ? (double)(in - (kept < in ? kept : in)) / (double)in : -1.0;
}

void rc_compact_learn(rc_renderer *r, const rc_frame_stats *st) {
    for (uint32_t b = 0; b < st->bounces && b < RC_MAX_DEPTH; b++) {
        const rc_bounce_stats *o = &st->bounce[b];
        r->comp.hint[b] = fraction(o->stream, o->kept);
        r->scomp.hint[b] = fraction(o->shadow_in, o->shadow_kept);
        r->comp.live[b] = o->stream;
        r->scomp.live[b] = o->shadow_in;
    }
}
