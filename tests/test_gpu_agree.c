/* test_gpu_agree.c: the CUDA backend renders what the CPU backend renders; every CUDA
 * compaction algorithm (and `none`, both modes, each frame loop: graph, stream, host) gives a
 * bit-identical image on the GPU, and so do waves of several samples per pixel; a replayed frame
 * graph follows a film reset and a camera change; the bvh and persistent megakernels
 * (megakernel.h) render the same image as the wavefront loop, the flat one nearly the same;
 * auto reports a real algorithm per bounce; --sort-materials, --tail-below and the shadow rays
 * traced in shade (--shadows inline) change nothing in the image. CPU and GPU round some maths
 * differently (fused multiply-add, sinf, powf), so their paths part ways and the images differ by
 * noise: they are compared like test_reference, on 16x16 block means, with a tolerance stated by
 * the caller. Exits 77 (skipped) without a usable CUDA device. Usage: test_gpu_agree SCENE WIDTH
 * HEIGHT SPP TOLERANCE [--algorithms] */
#include "rc_test.h"
#include "wavefront/compact.h"
#include "wavefront/megakernel.h"

#include <string.h>

static rc_frame_loop g_loop = RC_LOOP_GRAPH; /* the frame loop of the next renders */
static int g_sort;                           /* --sort-materials in the next renders */
/* --tail-below in the next renders: 0, so the phases and compactions of every bounce are what
 * these checks see; tail_agrees checks the tail against them */
static uint32_t g_tail;
/* where the next renders trace their shadow rays, and their schedule (regen: a pool of 512) */
static rc_shadows g_shadows = RC_SHADOWS_STREAM;
static rc_schedule g_schedule = RC_SCHEDULE_WAVES;

static float *render_wave(const rc_scene *s, rc_backend b, const char *algo, rc_mode mode,
                          uint32_t w, uint32_t h, uint32_t spp, uint32_t wave) {
    rc_settings st = test_settings(s, w, h, algo, mode);
    st.samples_per_wave = wave;
    st.backend = b;
    st.frame_loop = g_loop;
    st.sort_materials = g_sort;
    st.tune.tail_below = g_tail;
    st.shadows = g_shadows;
    st.schedule = g_schedule;
    st.tune.pool = 512;
    return test_render(s, &st, spp);
}

static float *render_on(const rc_scene *s, rc_backend b, const char *algo, rc_mode mode, uint32_t w,
                        uint32_t h, uint32_t spp) {
    return render_wave(s, b, algo, mode, w, h, spp, 1);
}

/* Waves of several samples, and the megakernels, against the wavefront loop one sample a wave
 * (`ref`); `tol` is the block RMSE allowed between images of different random numbers. */
static void waves_and_megakernel(const rc_scene *s, uint32_t w, uint32_t h, uint32_t spp,
                                 const float *ref, double tol) {
    size_t bytes = (size_t)w * h * 3 * sizeof(float);
    const char *algos[] = {"single-pass", "redzone"};
    for (int i = 0; i < 2; i++) {
        for (int m = 0; m < 2; m++) {
            uint32_t wave = spp > 3 ? 3 : spp; /* ends on a shorter wave unless 3 divides spp */
            float *img = render_wave(s, RC_BACKEND_CUDA, algos[i], (rc_mode)m, w, h, spp, wave);
            int same = img && memcmp(img, ref, bytes) == 0;
            CHECK(same, "cuda %s/%s, %u samples per wave: image differs", algos[i],
                  rc_mode_name((rc_mode)m), wave);
            if (same)
                printf("  %-14s %-8s identical with %u samples per wave\n", algos[i],
                       rc_mode_name((rc_mode)m), wave);
            free(img);
        }
    }
    rc_settings st;
    rc_settings_init(&st, s);
    st.width = w;
    st.height = h;
    float *mk = malloc(bytes);
    rc_megakernel_result res;
    rc_error err;
    /* the teaching baselines refuse what they were not written for (megakernel.cu) */
    int newer = (rc_scene_features(s) &
                 (RC_FEAT_MODELS | RC_FEAT_TEXTURES | RC_FEAT_ENV | RC_FEAT_INST)) != 0;
    for (size_t i = 0; i < s->num_materials; i++) newer |= s->materials[i].alpha_cutoff > 0.0f;
    int ok = mk && rc_megakernel_render(s, &st, RC_MEGAKERNEL_FLAT, spp, 1, mk, &res, &err) == 0;
    if (newer) {
        CHECK(!ok && strstr(err.msg, "teaching baseline"), "flat megakernel on a glTF scene: %s",
              ok ? "rendered" : err.msg);
        printf("  flat megakernel: refused: %s\n", ok ? "-" : err.msg);
        ok = 0;
    } else {
        CHECK(ok, "flat megakernel: %s", mk ? err.msg : "out of memory");
    }
    if (ok) {
        /* Same code, same random keys; but the kernel is compiled as one function, where the
         * compiler may fuse multiply-adds differently, and a ray that meets two primitives at
         * one distance may take either: a path that rounds differently once takes another
         * way. Most pixels must still be bit-identical, and all must agree in the mean. */
        size_t differ = 0, pixels = (size_t)w * h;
        for (size_t p = 0; p < pixels; p++)
            differ += memcmp(&mk[3 * p], &ref[3 * p], 3 * sizeof(float)) != 0;
        double block = rc_image_block_rmse(mk, ref, w, h, 16);
        printf("  flat megakernel: %zu of %zu pixels differ from the wavefront image, block RMSE "
               "%.5f, %.2f ms, %llu rays\n",
               differ, pixels, block, res.ms, (unsigned long long)res.rays);
        CHECK(differ * 4 <= pixels, "flat megakernel: %zu of %zu pixels differ", differ, pixels);
        CHECK(block <= tol, "flat megakernel: block RMSE %g over %g", block, tol);
    }
    /* bvh and persistent run the renderer's own per-path functions and BVH: the same image. */
    rc_megakernel_kind fair[] = {RC_MEGAKERNEL_BVH, RC_MEGAKERNEL_PERSISTENT};
    for (int k = 0; k < 2; k++) {
        const char *name = rc_megakernel_name(fair[k]);
        ok = mk && rc_megakernel_render(s, &st, fair[k], spp, 1, mk, &res, &err) == 0;
        CHECK(ok, "%s megakernel: %s", name, mk ? err.msg : "out of memory");
        if (!ok) continue;
        size_t differ = 0, pixels = (size_t)w * h;
        for (size_t p = 0; p < pixels; p++)
            differ += memcmp(&mk[3 * p], &ref[3 * p], 3 * sizeof(float)) != 0;
        printf("  %s megakernel: %zu of %zu pixels differ from the wavefront image, %.2f ms, "
               "%llu rays\n",
               name, differ, pixels, res.ms, (unsigned long long)res.rays);
        CHECK(differ == 0, "%s megakernel: %zu of %zu pixels differ", name, differ, pixels);
    }
    int spheres = 1;
    for (uint32_t i = 0; i < s->bvh.num_prims; i++)
        spheres &= rc_prim_type(&s->bvh.prims[i]) == RC_PRIM_SPHERE;
    ok = mk && rc_megakernel_render(s, &st, RC_MEGAKERNEL_OBJECTS, spp, 1, mk, &res, &err) == 0;
    if (newer) {
        CHECK(!ok && strstr(err.msg, "teaching baseline"), "object megakernel on a glTF scene: %s",
              ok ? "rendered" : err.msg);
        printf("  object megakernel: refused: %s\n", ok ? "-" : err.msg);
    } else if (!spheres) {
        /* The book's form draws spheres only: a clear error, not a wrong image. */
        CHECK(!ok && strstr(err.msg, "spheres only"), "object megakernel on quads: %s",
              ok ? "rendered" : err.msg);
        printf("  object megakernel: refused: %s\n", ok ? "-" : err.msg);
    } else {
        CHECK(ok, "object megakernel: %s", mk ? err.msg : "out of memory");
        double block = ok ? rc_image_block_rmse(mk, ref, w, h, 16) : 1.0;
        if (ok)
            printf("  object megakernel: block RMSE %.5f against the wavefront image, %.2f ms, "
                   "%llu rays\n",
                   block, res.ms, (unsigned long long)res.rays);
        CHECK(block <= tol, "object megakernel: block RMSE %g over %g", block, tol);
    }
    free(mk);
}

/* Every algorithm the library implements on CUDA, `none` included, both modes, every frame
 * loop, against none/indices in the host loop (the loop of earlier releases). */
static void algorithms(const rc_scene *s) {
    g_loop = RC_LOOP_HOST;
    float *ref = render_on(s, RC_BACKEND_CUDA, "none", RC_MODE_INDICES, 40, 40, 4);
    CHECK(ref != NULL, "cuda none/indices failed");
    if (!ref) return;
    const char *names[64];
    size_t n = rc_compact_names(RC_BACKEND_CUDA, names, 64);
    for (int l = RC_LOOP_GRAPH; l <= RC_LOOP_HOST; l++) {
        g_loop = (rc_frame_loop)l;
        for (size_t i = 0; i < n; i++) {
            for (int m = 0; m < 2; m++) {
                rc_error err;
                const char *mode = rc_mode_name((rc_mode)m), *loop = rc_frame_loop_name(g_loop);
                if (rc_compact_check(names[i], RC_BACKEND_CUDA, &err) != 0) {
                    printf("  %-14s %-8s skipped: %s\n", names[i], mode, err.msg);
                    continue;
                }
                float *img = render_on(s, RC_BACKEND_CUDA, names[i], (rc_mode)m, 40, 40, 4);
                int same = img && memcmp(img, ref, 40 * 40 * 3 * sizeof(float)) == 0;
                CHECK(same, "cuda %s/%s, %s loop: image differs from none/indices", names[i], mode,
                      loop);
                if (same) printf("  %-14s %-8s %-6s identical\n", names[i], mode, loop);
                free(img);
            }
        }
    }
    g_loop = RC_LOOP_GRAPH;
    free(ref);
}

/* --sort-materials on the GPU: the partition by material kind before shade and one shade
 * launch per kind (offsets and lengths on the device) give the unsorted image bit for bit, in
 * every frame loop, both modes, for `none`, a flag and a removal-list algorithm and auto, in
 * waves of one and of two samples (tests/test_sort.c checks the same on the CPU). */
static void sorted(const rc_scene *s) {
    g_loop = RC_LOOP_HOST;
    g_sort = 0;
    float *ref = render_on(s, RC_BACKEND_CUDA, "none", RC_MODE_INDICES, 40, 40, 4);
    CHECK(ref != NULL, "cuda none/indices failed");
    const char *names[] = {"none", "single-pass", "redzone", "auto"};
    g_sort = 1;
    for (int l = RC_LOOP_GRAPH; l <= RC_LOOP_HOST && ref; l++) {
        g_loop = (rc_frame_loop)l;
        for (size_t i = 0; i < sizeof names / sizeof *names; i++)
            for (int m = 0; m < 2; m++) {
                const char *mode = rc_mode_name((rc_mode)m), *loop = rc_frame_loop_name(g_loop);
                uint32_t wave = 1 + (uint32_t)(i % 2);
                float *img = render_wave(s, RC_BACKEND_CUDA, names[i], (rc_mode)m, 40, 40, 4, wave);
                int same = img && memcmp(img, ref, 40 * 40 * 3 * sizeof(float)) == 0;
                CHECK(same, "cuda --sort-materials %s/%s, %s loop, waves of %u: image differs",
                      names[i], mode, loop, wave);
                if (same) printf("  sorted %-14s %-8s %-6s identical\n", names[i], mode, loop);
                free(img);
            }
    }
    g_sort = 0;
    g_loop = RC_LOOP_GRAPH;
    free(ref);
}

/* --shadows inline on the GPU: shade traces each shadow ray itself (the binary or the wide BVH,
 * the scene's kernel level) and the image is the stream's bit for bit, in every frame loop, both
 * modes, for `none`, a flag and a removal-list algorithm and auto; in the graph loop also with
 * the tail kernel, with --sort-materials, in waves of two samples and in the regen schedule (a
 * pool of 512). */
static void inline_shadows(const rc_scene *s) {
    g_loop = RC_LOOP_HOST;
    float *ref = render_on(s, RC_BACKEND_CUDA, "none", RC_MODE_INDICES, 40, 40, 4);
    CHECK(ref != NULL, "cuda none/indices failed");
    const char *names[] = {"none", "single-pass", "redzone", "auto"};
    const size_t bytes = 40 * 40 * 3 * sizeof(float);
    int compared = 0, same_n = 0;
    g_shadows = RC_SHADOWS_INLINE;
    for (int l = RC_LOOP_GRAPH; l <= RC_LOOP_HOST && ref; l++) {
        g_loop = (rc_frame_loop)l;
        for (int v = 0; v < (l == RC_LOOP_GRAPH ? 5 : 1); v++) /* plain, tail, sorted, 2, regen */
            for (size_t i = 0; i < sizeof names / sizeof *names; i++)
                for (int m = 0; m < 2; m++) {
                    g_tail = v == 1 ? 1000u : 0u;
                    g_sort = v == 2;
                    g_schedule = v == 4 ? RC_SCHEDULE_REGEN : RC_SCHEDULE_WAVES;
                    const uint32_t wave = v == 3 ? 2u : 1u;
                    float *img =
                        render_wave(s, RC_BACKEND_CUDA, names[i], (rc_mode)m, 40, 40, 4, wave);
                    const int same = img && memcmp(img, ref, bytes) == 0;
                    CHECK(same, "cuda --shadows inline %s/%s, %s loop, variant %d: image differs",
                          names[i], rc_mode_name((rc_mode)m), rc_frame_loop_name(g_loop), v);
                    compared++;
                    same_n += same;
                    free(img);
                }
    }
    printf("  shadows inline: %d of %d renders identical to the stream's\n", same_n, compared);
    g_shadows = RC_SHADOWS_STREAM;
    g_schedule = RC_SCHEDULE_WAVES;
    g_tail = 0;
    g_sort = 0;
    g_loop = RC_LOOP_GRAPH;
    free(ref);
}

/* auto on the GPU, every frame loop: each bounce reports a real algorithm (never "auto"),
 * also when a captured graph is replayed (frames 3 and 4), and every frame gives the image a
 * fixed algorithm gives. The device loops' first frame has no density (default choice), the
 * next ones the previous frame's; the graph is captured again when that changes a choice.
 * With auto_skip_below at its default (16384 paths, more than the 1600 of a 40x40 wave), the
 * device loops leave every bounce of frames 1-3 uncompacted ("none"), replanned from frame 0's
 * counts; the host loop always compacts; the image stays the same. */
static void auto_reports(const rc_scene *s) {
    for (int l = RC_LOOP_GRAPH, skip = 0; l <= RC_LOOP_HOST; l += skip, skip = !skip) {
        rc_settings st = test_settings(s, 40, 40, "auto", RC_MODE_INDICES);
        st.backend = RC_BACKEND_CUDA;
        st.frame_loop = (rc_frame_loop)l;
        st.tune.auto_skip_below = skip ? RC_AUTO_SKIP_BELOW : 0;
        st.tune.tail_below = 0;
        rc_renderer *r;
        rc_error err;
        if (rc_renderer_create(s, &st, &r, &err) != 0) {
            CHECK(0, "auto, %s loop: %s", rc_frame_loop_name(st.frame_loop), err.msg);
            continue;
        }
        int recaptures = 0;
        for (int frame = 0; frame < 4; frame++) {
            rc_frame_stats fs;
            int rc = rc_render_frame(r, &fs, &err);
            CHECK(rc == 0, "auto, %s loop, frame %d: %s", rc_frame_loop_name(st.frame_loop), frame,
                  err.msg);
            if (rc != 0) break;
            /* the graph loop captures its first frame, and again at most once when the blind
               first plan is replaced; the other loops never capture */
            if (st.frame_loop == RC_LOOP_GRAPH && frame == 0)
                CHECK(fs.captured, "auto, graph loop: the first frame did not say it captured");
            else if (st.frame_loop == RC_LOOP_GRAPH)
                recaptures += fs.captured;
            else
                CHECK(!fs.captured, "auto, %s loop, frame %d says it captured a graph",
                      rc_frame_loop_name(st.frame_loop), frame);
            const int skipped = skip && frame > 0 && st.frame_loop != RC_LOOP_HOST;
            for (uint32_t b = 0; b < fs.bounces; b++) {
                const char *name = fs.bounce[b].algo ? fs.bounce[b].algo : "(null)";
                const sc_algorithm_info *info = sc_algorithm_find(name);
                if (skipped)
                    CHECK(strcmp(name, RC_COMPACT_NONE_NAME) == 0,
                          "auto skipping, %s loop, frame %d bounce %u: '%s', want none",
                          rc_frame_loop_name(st.frame_loop), frame, b, name);
                else
                    CHECK(info && info->id != SC_ALGO_AUTO,
                          "auto%s, %s loop, frame %d bounce %u: '%s'", skip ? " skipping" : "",
                          rc_frame_loop_name(st.frame_loop), frame, b, name);
                if (frame == 3)
                    printf("  auto%s %-6s bounce %2u: %s\n", skip ? " (skipping)" : "",
                           rc_frame_loop_name(st.frame_loop), b, name);
            }
        }
        CHECK(recaptures <= 1, "auto, graph loop: %d recaptures in frames 1-3 (at most 1)",
              recaptures);
        float *img = malloc(40 * 40 * 3 * sizeof *img);
        CHECK(img && rc_renderer_image(r, img, &err) == 0, "auto: image: %s", err.msg);
        rc_renderer_destroy(r);
        g_loop = RC_LOOP_HOST;
        float *ref = render_on(s, RC_BACKEND_CUDA, "scan-scatter", RC_MODE_INDICES, 40, 40, 4);
        g_loop = RC_LOOP_GRAPH;
        CHECK(img && ref && memcmp(img, ref, 40 * 40 * 3 * sizeof(float)) == 0,
              "auto%s, %s loop: 4 frames differ from scan-scatter's", skip ? " skipping" : "",
              rc_frame_loop_name(st.frame_loop));
        free(img);
        free(ref);
    }
}

/* --tail-below: from the first bounce with fewer live paths than the threshold in the frame
 * before, one kernel finishes the paths. Against the same renderer without it, frame by frame:
 * every bounce has the same live, kept and shadow-ray counts, and the tail's rays in are the
 * paths it carried in; the tail runs from bounce 0 (a threshold above the wave) or from a bounce
 * in the middle (300 of 1600 paths) once a frame has given counts; after 5 frames the images
 * are bit-identical. Graph and stream loops, both modes, `none`, fixed flag and removal-list
 * algorithms and auto (which leaves small bounces uncompacted before the tail). */
static void tail_agrees(const rc_scene *s) {
    const char *names[] = {"none", "single-pass", "redzone", "atomic", "auto"};
    /* 24: fewer paths than a 40x40 frame's 7 blocks have pairs of warps (28), so a scene with
       lights runs the tail's paired kernel (tail.cu) there, and the one-path-a-thread kernel
       at the other two */
    const uint32_t tails[] = {1u << 30, 300, 24};
    const size_t bytes = 40 * 40 * 3 * sizeof(float);
    for (int l = RC_LOOP_GRAPH; l <= RC_LOOP_STREAM; l++)
        for (size_t i = 0; i < sizeof names / sizeof *names; i++)
            for (int m = 0; m < 2; m++)
                for (int t = 0; t < 3; t++) {
                    rc_settings st = test_settings(s, 40, 40, names[i], (rc_mode)m);
                    st.backend = RC_BACKEND_CUDA;
                    st.frame_loop = (rc_frame_loop)l;
                    rc_renderer *r[2] = {NULL, NULL};
                    rc_error err;
                    int ok = 1;
                    for (int k = 0; k < 2 && ok; k++) {
                        st.tune.tail_below = k ? tails[t] : 0;
                        ok = rc_renderer_create(s, &st, &r[k], &err) == 0;
                    }
                    const char *what = rc_mode_name((rc_mode)m),
                               *loop = rc_frame_loop_name(st.frame_loop);
                    CHECK(ok, "tail %s/%s %s: %s", names[i], what, loop, err.msg);
                    uint32_t first = st.max_depth;
                    unsigned kinds = 0; /* the tail kernels that ran, bit rc_tail_kind */
                    int nee = 0;
                    for (int f = 0; ok && f < 5; f++) {
                        rc_frame_stats fs[2];
                        for (int k = 0; k < 2 && ok; k++)
                            ok = rc_render_frame(r[k], &fs[k], &err) == 0;
                        CHECK(ok, "tail %s/%s %s, frame %d: %s", names[i], what, loop, f, err.msg);
                        if (!ok) break;
                        if (fs[1].tail_from < st.max_depth) kinds |= 1u << fs[1].tail_kind;
                        nee = rc_renderer_nee(r[1]);
                        const uint32_t from = fs[1].tail_from;
                        if (f == 4) first = from;
                        CHECK(f > 0 ? from < st.max_depth && (t == 0) == (from == 0)
                                    : from == st.max_depth,
                              "tail %s/%s %s below %u, frame %d: starts at bounce %u", names[i],
                              what, loop, tails[t], f, from);
                        CHECK(fs[0].bounces == fs[1].bounces, "tail: %u bounces, want %u",
                              fs[1].bounces, fs[0].bounces);
                        for (uint32_t b = 0; b < fs[0].bounces && b < fs[1].bounces; b++) {
                            const rc_bounce_stats *x = &fs[0].bounce[b], *y = &fs[1].bounce[b];
                            uint32_t in = b <= from ? x->stream
                                          : b > 0 && fs[1].bounce[b - 1].kept
                                              ? fs[1].bounce[b - 1].kept
                                              : 0;
                            CHECK(y->alive == x->alive && y->kept == x->kept &&
                                      y->shadow_kept == x->shadow_kept && y->stream == in,
                                  "tail %s/%s %s below %u, frame %d bounce %u (tail from %u): rays "
                                  "in "
                                  "%u alive %u kept %u shadows %u, want %u %u %u %u",
                                  names[i], what, loop, tails[t], f, b, from, y->stream, y->alive,
                                  y->kept, y->shadow_kept, in, x->alive, x->kept, x->shadow_kept);
                            if (b >= from)
                                CHECK(strcmp(y->algo, RC_TAIL_NAME) == 0 && y->extend_ms == 0.0 &&
                                          y->compact_ms == 0.0 && (b > from || y->tail_ms > 0.0),
                                      "tail %s/%s bounce %u: algorithm '%s', extend %g ms, tail %g "
                                      "ms",
                                      names[i], what, b, y->algo, y->extend_ms, y->tail_ms);
                        }
                    }
                    /* which tail kernel ran: pairs with shadow rays on a short stream only;
                       `none` walks the whole wave */
                    const int compacted = strcmp(names[i], "none") && strcmp(names[i], "auto");
                    const int paired = (kinds >> RC_TAIL_PAIRS) & 1u;
                    CHECK(!paired || (nee && t > 0 && strcmp(names[i], "none")),
                          "tail %s/%s %s below %u: paired kernel on a long stream", names[i], what,
                          loop, tails[t]);
                    CHECK(paired || !(nee && t == 2 && compacted),
                          "tail %s/%s %s below %u: the paired kernel never ran", names[i], what,
                          loop, tails[t]);
                    float *img[2] = {malloc(bytes), malloc(bytes)};
                    for (int k = 0; k < 2 && ok; k++)
                        ok = img[k] && rc_renderer_image(r[k], img[k], &err) == 0;
                    int same = ok && memcmp(img[0], img[1], bytes) == 0;
                    CHECK(same, "tail %s/%s %s below %u: image differs without the tail", names[i],
                          what, loop, tails[t]);
                    if (same)
                        printf("  tail below %-10u %-14s %-8s %-6s identical, counts equal, from "
                               "bounce %u%s\n",
                               tails[t], names[i], what, loop, first,
                               kinds & (1u << RC_TAIL_PAIRS) ? ", pairs" : "");
                    for (int k = 0; k < 2; k++) {
                        free(img[k]);
                        rc_renderer_destroy(r[k]);
                    }
                }
}

/* A replayed frame graph reads the camera and the sample index on the device: after a reset
 * and a camera change it renders what a new renderer renders for that camera. */
static void graph_follows_camera(const rc_scene *s) {
    rc_settings st = test_settings(s, 32, 24, "single-pass", RC_MODE_INDICES);
    st.backend = RC_BACKEND_CUDA;
    rc_scene s2 = *s;
    s2.camera.look_from.x += 0.25f;
    rc_camera moved = rc_camera_make(&s2.camera, (float)st.width / (float)st.height);
    float *want = test_render(&s2, &st, 3); /* a fresh renderer with the moved camera */
    size_t bytes = (size_t)st.width * st.height * 3 * sizeof(float);
    float *got = malloc(bytes);
    rc_renderer *r = NULL;
    rc_error err;
    int ok = want && got && rc_renderer_create(s, &st, &r, &err) == 0;
    for (int f = 0; ok && f < 2; f++) ok = rc_render_frame(r, NULL, &err) == 0;
    if (ok) {
        rc_renderer_set_camera(r, &moved);
        rc_renderer_reset(r);
    }
    for (int f = 0; ok && f < 3; f++) ok = rc_render_frame(r, NULL, &err) == 0;
    ok = ok && rc_renderer_image(r, got, &err) == 0;
    CHECK(ok, "graph replay after a camera change: %s", err.msg);
    int same = ok && memcmp(got, want, bytes) == 0;
    CHECK(same,
          "graph replay after a camera change and a reset: image differs from a new renderer");
    if (same) printf("  graph replay after a camera change and a reset: identical\n");
    rc_renderer_destroy(r);
    free(want);
    free(got);
}

int main(int argc, char **argv) {
    rc_scene s;
    int started =
        test_start("test_gpu_agree", argc >= 6, "SCENE WIDTH HEIGHT SPP TOLERANCE [--algorithms]",
                   "scan-scatter", argv, 1, &s);
    if (started != 0) return started;
    uint32_t w = (uint32_t)atoi(argv[2]), h = (uint32_t)atoi(argv[3]);
    uint32_t spp = (uint32_t)atoi(argv[4]);
    double tol = atof(argv[5]);
    float *cpu = render_on(&s, RC_BACKEND_CPU, "scan-scatter", RC_MODE_INDICES, w, h, spp);
    float *gpu = render_on(&s, RC_BACKEND_CUDA, "scan-scatter", RC_MODE_INDICES, w, h, spp);
    if (gpu) waves_and_megakernel(&s, w, h, spp, gpu, tol);
    CHECK(cpu && gpu, "render failed");
    if (cpu && gpu) {
        size_t n = (size_t)w * h * 3, same = 0, bad = 0;
        for (size_t i = 0; i < n; i++) {
            same += cpu[i] == gpu[i];
            bad += !isfinite(gpu[i]);
        }
        double block = rc_image_block_rmse(cpu, gpu, w, h, 16);
        printf("%s %ux%u %u spp: CPU vs CUDA block RMSE %.5f (tolerance %.5f), %.1f%% of values "
               "bit-identical\n",
               argv[1], w, h, spp, block, tol, 100.0 * (double)same / (double)n);
        CHECK(bad == 0, "%zu GPU values are NaN or Inf", bad);
        CHECK(block <= tol, "block RMSE %g over tolerance %g", block, tol);
    }
    free(cpu);
    free(gpu);
    if (argc > 6 && strcmp(argv[6], "--algorithms") == 0) algorithms(&s);
    sorted(&s);
    inline_shadows(&s);
    auto_reports(&s);
    tail_agrees(&s);
    graph_follows_camera(&s);
    rc_scene_free(&s);
    return test_finish("test_gpu_agree");
}
