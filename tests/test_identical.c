/* test_identical.c: every compaction algorithm of the CPU backend, `none` and both modes give
 * a bit-identical image of a small Cornell box render (auto among them, offered flags and a
 * removal list at every bounce); so do a different thread count and
 * several samples per wave (3 + 1 instead of 4 waves of one).
 * Holds because the random numbers are keyed by (pixel, sample, bounce, dimension) and the
 * film holds exact fixed-point sums of the samples (rng.h, film.h).
 * With ENV.hdr the scene is lit by that environment map too (the glTF demo scene's case:
 * textures, normal maps, glass, alpha masks, emitters and the map's importance sampling).
 * The shadow rays traced in shade (--shadows inline) give the same image as their stream (the
 * reference), in every mode, wave and schedule; where --shadows auto traces them is checked
 * against RC_TEST_SHADOWS_AUTO ("inline" or "stream") when it is set.
 * Usage: test_identical SCENE [ENV.hdr] */
#include "rc_test.h"
#include "wavefront/compact.h"

#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define SIZE 40
#define SPP  4

/* Where render_with's renders trace their shadow rays, and their schedule. */
static rc_shadows g_shadows = RC_SHADOWS_STREAM;
static rc_schedule g_schedule = RC_SCHEDULE_WAVES;

static float *render_with(const rc_scene *s, const char *algo, rc_mode mode, uint32_t wave,
                          int *skipped) {
    rc_settings st = test_settings(s, SIZE, SIZE, algo, mode);
    st.samples_per_wave = wave;
    st.shadows = g_shadows;
    st.schedule = g_schedule;
    st.tune.pool = 500; /* regen: a pool smaller than the frame's paths, refilled */
    st.max_depth = 10;
    st.tune.tile = 64; /* several tiles per stream for the block-based algorithms */
    rc_error err;
    rc_renderer *r;
    *skipped = 0;
    if (rc_renderer_create(s, &st, &r, &err) != 0) {
        /* Algorithms the library lists but has not implemented yet on this backend. */
        if (strstr(err.msg, "not implemented")) {
            printf("  %-14s %-8s skipped: %s\n", algo, rc_mode_name(mode), err.msg);
            *skipped = 1;
            return NULL;
        }
        fprintf(stderr, "%s\n", err.msg);
        return NULL;
    }
    rc_renderer_destroy(r);
    return test_render(s, &st, SPP);
}

int main(int argc, char **argv) {
    rc_scene s;
    int started =
        test_start("test_identical", argc == 2 || argc == 3, "SCENE [ENV.hdr]", NULL, argv, 1, &s);
    if (started != 0) return started;
    if (argc == 3) {
        rc_env_map env;
        rc_error err;
        if (rc_env_load_file(argv[2], SIZE_MAX, &env, &err) != 0 ||
            (rc_scene_set_env(&s, &env, 30.0f, 1.0f), rc_scene_relight(&s, &err)) != 0) {
            fprintf(stderr, "test_identical: %s\n", err.msg);
            return 1;
        }
        printf("lit by %s (environment share of the light samples %.2f)\n", argv[2],
               (double)s.env_prob);
    }
    const size_t bytes = SIZE * SIZE * 3 * sizeof(float);
    int skipped;
    float *ref = render_with(&s, "none", RC_MODE_INDICES, 1, &skipped);
    CHECK(ref != NULL, "reference render (none, indices) failed");
    if (!ref) return test_finish("test_identical");
    const char *names[64];
    size_t n = rc_compact_names(RC_BACKEND_CPU, names, 64);
    int compared = 0, autos = 0;
    for (size_t i = 0; i < n; i++) {
        for (int m = 0; m < 2; m++) {
            float *img = render_with(&s, names[i], (rc_mode)m, 1, &skipped);
            if (skipped) continue;
            CHECK(img != NULL, "%s/%s: render failed", names[i], rc_mode_name((rc_mode)m));
            if (!img) continue;
            int same = memcmp(img, ref, bytes) == 0;
            CHECK(same, "%s/%s: image differs from none/indices", names[i],
                  rc_mode_name((rc_mode)m));
            if (same) printf("  %-14s %-8s identical\n", names[i], rc_mode_name((rc_mode)m));
            compared++;
            autos += same && strcmp(names[i], "auto") == 0; /* flags and a list offered */
            free(img);
        }
    }
    /* none, serial and scan-scatter exist from the start: at least those six runs. */
    CHECK(compared >= 6, "only %d runs compared", compared);
    CHECK(autos == 2, "auto: %d of 2 modes identical", autos);
    /* Waves of 3 samples per pixel (3 + 1): a stream of 3 images, the same film. */
    const char *wave_algos[] = {"none", "scan-scatter", "redzone", "auto"};
    for (int i = 0; i < 4; i++) {
        for (int m = 0; m < 2; m++) {
            float *img = render_with(&s, wave_algos[i], (rc_mode)m, 3, &skipped);
            CHECK(img && memcmp(img, ref, bytes) == 0, "%s/%s, 3 samples per wave: image differs",
                  wave_algos[i], rc_mode_name((rc_mode)m));
            if (img && memcmp(img, ref, bytes) == 0)
                printf("  %-14s %-8s identical with 3 samples per wave\n", wave_algos[i],
                       rc_mode_name((rc_mode)m));
            free(img);
        }
    }
    /* The shadow rays traced in shade: the same image, in every mode, wave and schedule. */
    const char *inline_algos[] = {"none", "scan-scatter", "auto"};
    int inlined = 0;
    g_shadows = RC_SHADOWS_INLINE;
    for (int sc = 0; sc < 2; sc++) {
        g_schedule = sc ? RC_SCHEDULE_REGEN : RC_SCHEDULE_WAVES;
        for (int i = 0; i < 3; i++)
            for (int m = 0; m < 4; m++) {
                const rc_mode mode = (rc_mode)(m & 1);
                const uint32_t wave = m < 2 ? 1 : 3;
                float *img = render_with(&s, inline_algos[i], mode, wave, &skipped);
                const int same = img && memcmp(img, ref, bytes) == 0;
                CHECK(same, "%s/%s, %u per wave, %s, shadows inline: image differs",
                      inline_algos[i], rc_mode_name(mode), wave, rc_schedule_name(g_schedule));
                inlined += same;
                free(img);
            }
    }
    printf("  shadows inline: %d of 24 renders identical\n", inlined);
    g_shadows = RC_SHADOWS_STREAM;
    g_schedule = RC_SCHEDULE_WAVES;
    /* auto: where this scene's shadow rays go (rc_view_shadows_inline) */
    const char *want = getenv("RC_TEST_SHADOWS_AUTO");
    if (want) {
        rc_settings st = test_settings(&s, SIZE, SIZE, "auto", RC_MODE_INDICES);
        rc_renderer *r;
        rc_error err;
        CHECK(rc_renderer_create(&s, &st, &r, &err) == 0, "%s", err.msg);
        const int inl = rc_renderer_shadows_inline(r), expect = !strcmp(want, "inline");
        CHECK(rc_renderer_nee(r) && inl == expect &&
                  rc_shadow_rays(&s, &st) == (expect ? RC_SHADOWS_INLINE : RC_SHADOWS_STREAM),
              "--shadows auto: traced %s, want %s", inl ? "inline" : "in a stream", want);
        rc_renderer_destroy(r);
    }
#ifdef _OPENMP
    omp_set_num_threads(1);
    float *one = render_with(&s, "scan-scatter", RC_MODE_PAYLOAD, 1, &skipped);
    CHECK(one && memcmp(one, ref, bytes) == 0, "one thread: image differs");
    free(one);
#endif
    free(ref);
    rc_scene_free(&s);
    return test_finish("test_identical");
}
