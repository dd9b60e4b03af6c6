/* test_probes.c: the divergence probes (core/probe.h) count what the kernels did. Against
 * independent references:
 *   - analytic: in the waves schedule (tail off), the shade kernel of a compacted stream (both
 *     modes) runs its n live paths in ceil(n / 32) warp instructions at the shade probe, n the
 *     bounce's live count the renderer reports; `none` runs them in as many as there are
 *     aligned groups of 32 stream slots holding a live path, counted from the alive-ray mask
 *     (one sample a pixel: slot = pixel);
 *   - a second algorithm: the lanes of every point and bounce (paths shaded, rays traced, node
 *     visits, BSDF samplings by material) are the same for every algorithm, mode, frame loop,
 *     schedule, the material sort, the tail and the bvh and persistent megakernels, which trace
 *     the same paths; only the instructions they take differ;
 *   - bounds: a bin's lanes per instruction lie in 1 .. 32, its all-bounces bin sums the rest.
 * Needs a CUDA device (77 without one) and a build configured with RAYCOMPACT_PROBES (1
 * without: it is registered only there). Usage: test_probes SCENE WIDTH HEIGHT */
#include "rc_test.h"
#include "wavefront/megakernel.h"

#include <string.h>

#define ONE (1ull << RC_PROBE_SHIFT)

/* One frame of one sample per pixel with `st`; its probes into *pc and stats into *fs; the mask
 * of `watch` (>= 0) into mask. 0, or -1 (printed). */
static int probed_frame(const rc_scene *s, const rc_settings *st, int watch, uint8_t *mask,
                        rc_probe_counts *pc, rc_frame_stats *fs) {
    rc_error err;
    rc_renderer *r;
    if (rc_renderer_create(s, st, &r, &err) != 0) {
        fprintf(stderr, "renderer: %s\n", err.msg);
        return -1;
    }
    int rc = watch >= 0 ? rc_renderer_watch_bounce(r, watch, &err) : 0;
    if (rc == 0) rc = rc_render_frame(r, fs, &err);
    if (rc == 0 && mask) rc = rc_renderer_mask(r, mask, &err);
    if (rc == 0) rc = rc_renderer_probes(r, pc, &err);
    if (rc != 0) fprintf(stderr, "%s/%s: %s\n", st->algo, rc_mode_name(st->mode), err.msg);
    rc_renderer_destroy(r);
    return rc;
}

static rc_settings base(const rc_scene *s, uint32_t w, uint32_t h, const char *algo, rc_mode m) {
    rc_settings st = test_settings(s, w, h, algo, m);
    st.backend = RC_BACKEND_CUDA;
    st.schedule = RC_SCHEDULE_WAVES;
    st.samples_per_wave = 1;
    st.tune.tail_below = 0;
    st.probes = 1;
    return st;
}

/* The bounds every count holds. */
static void bounds(const char *who, const rc_probe_counts *p) {
    for (int pt = 0; pt < RC_PROBE_POINTS; pt++) {
        unsigned long long sum = 0;
        for (int b = 0; b <= RC_PROBE_BOUNCES; b++) {
            const rc_probe_bin *x = &p->bin[pt][b];
            if (b < RC_PROBE_BOUNCES) sum += x->lanes;
            if (!x->lanes) {
                CHECK(x->share == 0, "%s: point %d bin %d: issues without lanes", who, pt, b);
                continue;
            }
            /* share rounds down by < 1 unit an issue: fill may exceed 32 by that rounding */
            const double fill = rc_probe_fill(x);
            CHECK(fill >= 1.0 - 1e-9 && fill <= 32.0 * (1.0 + 1e-6),
                  "%s: point %d bin %d: %.4f lanes per instruction", who, pt, b, fill);
        }
        CHECK(sum == p->bin[pt][RC_PROBE_ALL].lanes, "%s: point %d: bounces sum to %llu, all %llu",
              who, pt, sum, p->bin[pt][RC_PROBE_ALL].lanes);
    }
    for (int b = 0; b < RC_PROBE_BOUNCES; b++)
        CHECK(p->bin[RC_PROBE_EXTEND_RAY][b].lanes == p->bin[RC_PROBE_SHADE][b].lanes,
              "%s: bounce %d: %llu rays traced, %llu paths shaded", who, b,
              p->bin[RC_PROBE_EXTEND_RAY][b].lanes, p->bin[RC_PROBE_SHADE][b].lanes);
}

/* The analytic check of shade's instructions, bounce by bounce. */
static void analytic(const rc_scene *s, uint32_t w, uint32_t h, const char *algo, rc_mode m) {
    const size_t pixels = (size_t)w * h;
    uint8_t *mask = malloc(pixels);
    rc_settings st = base(s, w, h, algo, m);
    const int none = strcmp(algo, "none") == 0;
    uint32_t checked = 0;
    for (uint32_t b = 0; mask && b < st.max_depth; b++) {
        rc_probe_counts pc;
        rc_frame_stats fs;
        if (probed_frame(s, &st, none ? (int)b : -1, mask, &pc, &fs) != 0) {
            CHECK(0, "%s/%s: render failed", algo, rc_mode_name(m));
            break;
        }
        const uint32_t alive = fs.bounce[b].alive;
        if (alive == 0) break;
        unsigned long long want = (alive + 31u) / 32u;
        if (none) {
            want = 0;
            uint32_t marked = 0;
            for (size_t g = 0; g < pixels; g += 32) {
                int any = 0;
                for (size_t i = g; i < g + 32 && i < pixels; i++) {
                    any |= mask[i];
                    marked += mask[i];
                }
                want += (unsigned long long)any;
            }
            CHECK(marked == alive, "none bounce %u: mask %u live, stats %u", b, marked, alive);
        }
        const rc_probe_bin *sh = &pc.bin[RC_PROBE_SHADE][b];
        CHECK(sh->lanes == alive, "%s/%s bounce %u: %llu lanes at shade, %u live paths", algo,
              rc_mode_name(m), b, sh->lanes, alive);
        CHECK(sh->share == want * ONE, "%s/%s bounce %u: %.3f instructions at shade, want %llu",
              algo, rc_mode_name(m), b, rc_probe_issues(sh), want);
        printf("  %-12s %-8s bounce %2u: %7u live, %6llu instructions at shade (%.2f lanes "
               "each)\n",
               algo, rc_mode_name(m), b, alive, want, rc_probe_fill(sh));
        checked++;
    }
    CHECK(checked > 1, "%s/%s: %u bounces checked", algo, rc_mode_name(m), checked);
    free(mask);
}

static int same_lanes(const rc_probe_counts *a, const rc_probe_counts *b, const char *who) {
    for (int pt = 0; pt < RC_PROBE_POINTS; pt++)
        for (int k = 0; k <= RC_PROBE_BOUNCES; k++)
            if (a->bin[pt][k].lanes != b->bin[pt][k].lanes) {
                CHECK(0, "%s: point %d bin %d: %llu lanes, the reference %llu", who, pt, k,
                      b->bin[pt][k].lanes, a->bin[pt][k].lanes);
                return 0;
            }
    return 1;
}

static void row(const char *who, const rc_probe_counts *p) {
    rc_probe_bin cls = {0, 0};
    for (int c = 0; c < RC_PROBE_CLASSES; c++) {
        cls.lanes += p->bin[RC_PROBE_CLASS + c][RC_PROBE_ALL].lanes;
        cls.share += p->bin[RC_PROBE_CLASS + c][RC_PROBE_ALL].share;
    }
    printf("  %-34s nodes %6.2f  shade %6.2f  scatter %6.2f  classes %6.2f lanes/instruction\n",
           who, rc_probe_fill(&p->bin[RC_PROBE_EXTEND_NODE][RC_PROBE_ALL]),
           rc_probe_fill(&p->bin[RC_PROBE_SHADE][RC_PROBE_ALL]),
           rc_probe_fill(&p->bin[RC_PROBE_SCATTER][RC_PROBE_ALL]), rc_probe_fill(&cls));
}

/* Every way of rendering the same samples counts the same lanes. */
static void invariance(const rc_scene *s, uint32_t w, uint32_t h) {
    rc_probe_counts ref, pc;
    rc_frame_stats fs;
    rc_settings st = base(s, w, h, "none", RC_MODE_INDICES);
    if (probed_frame(s, &st, -1, NULL, &ref, &fs) != 0) {
        CHECK(0, "reference render failed");
        return;
    }
    bounds("none indices", &ref);
    row("none indices graph", &ref);
    CHECK(ref.bin[RC_PROBE_EXTEND_NODE][RC_PROBE_ALL].lanes > ref.bin[RC_PROBE_SHADE][0].lanes,
          "fewer node visits than camera rays");
    struct {
        const char *algo;
        rc_mode mode;
        rc_frame_loop loop;
        rc_schedule schedule;
        int sort, tail;
    } cf[] = {
        {"single-pass", RC_MODE_PAYLOAD, RC_LOOP_GRAPH, RC_SCHEDULE_WAVES, 0, 0},
        {"single-pass", RC_MODE_INDICES, RC_LOOP_HOST, RC_SCHEDULE_WAVES, 0, 0},
        {"auto", RC_MODE_INDICES, RC_LOOP_GRAPH, RC_SCHEDULE_WAVES, 0, 1},
        {"auto", RC_MODE_PAYLOAD, RC_LOOP_GRAPH, RC_SCHEDULE_REGEN, 0, 1},
        {"none", RC_MODE_INDICES, RC_LOOP_STREAM, RC_SCHEDULE_REGEN, 0, 0},
        {"single-pass", RC_MODE_INDICES, RC_LOOP_GRAPH, RC_SCHEDULE_WAVES, 1, 0},
    };
    for (size_t i = 0; i < sizeof cf / sizeof *cf; i++) {
        st = base(s, w, h, cf[i].algo, cf[i].mode);
        st.frame_loop = cf[i].loop;
        st.schedule = cf[i].schedule;
        st.sort_materials = cf[i].sort;
        if (cf[i].tail) st.tune.tail_below = RC_TAIL_BELOW;
        char who[96];
        snprintf(who, sizeof who, "%s %s %s %s%s%s", cf[i].algo, rc_mode_name(cf[i].mode),
                 rc_frame_loop_name(cf[i].loop), rc_schedule_name(cf[i].schedule),
                 cf[i].sort ? " sorted" : "", cf[i].tail ? " tail" : "");
        if (probed_frame(s, &st, -1, NULL, &pc, &fs) != 0) {
            CHECK(0, "%s: render failed", who);
            continue;
        }
        bounds(who, &pc);
        if (same_lanes(&ref, &pc, who)) row(who, &pc);
    }
    const rc_megakernel_kind kinds[] = {RC_MEGAKERNEL_BVH, RC_MEGAKERNEL_PERSISTENT};
    float *rgb = malloc((size_t)w * h * 3 * sizeof *rgb);
    for (int k = 0; rgb && k < 2; k++) {
        st = base(s, w, h, "none", RC_MODE_INDICES);
        rc_megakernel_result res;
        rc_error err;
        int ok = rc_megakernel_render(s, &st, kinds[k], 1, 1, rgb, &res, &err) == 0;
        CHECK(ok && res.probed, "%s megakernel: %s", rc_megakernel_name(kinds[k]),
              ok ? "no probes" : err.msg);
        if (!ok || !res.probed) continue;
        char who[64];
        snprintf(who, sizeof who, "megakernel %s", rc_megakernel_name(kinds[k]));
        bounds(who, &res.probes);
        if (same_lanes(&ref, &res.probes, who)) row(who, &res.probes);
    }
    free(rgb);
}

int main(int argc, char **argv) {
    rc_scene s;
    int started =
        test_start("test_probes", argc == 4, "SCENE WIDTH HEIGHT", "single-pass", argv, 1, &s);
    if (started != 0) return started;
    if (!rc_have_probes()) {
        fprintf(stderr, "test_probes: %s\n", RC_PROBES_NEEDED);
        rc_scene_free(&s);
        return 1;
    }
    uint32_t w = (uint32_t)atoi(argv[2]), h = (uint32_t)atoi(argv[3]);
    printf("%s %ux%u, one sample per pixel\n", argv[1], w, h);
    analytic(&s, w, h, "none", RC_MODE_INDICES);
    analytic(&s, w, h, "single-pass", RC_MODE_PAYLOAD);
    analytic(&s, w, h, "single-pass", RC_MODE_INDICES);
    invariance(&s, w, h);
    rc_scene_free(&s);
    return test_finish("test_probes");
}
