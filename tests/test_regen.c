/* test_regen.c: the regen schedule (a pool of path slots refilled with new camera paths after
 * each bounce, wavefront.h) renders the film of the waves schedule byte for byte: for every
 * compaction algorithm given (and `none`, which refills in place), both modes, pools from a
 * few dozen paths (the loop's last step then runs the tail with most of the frame left) to
 * more than the frame holds, frames of several samples, and on CUDA each frame loop and
 * extend's ray fetch at several thresholds and off. The reference is the waves schedule's film,
 * one sample per wave, on the same backend. A second seed must give another film, so the
 * comparison can fail. Exits 77 (skipped) for the cuda backend without a usable device.
 * Usage: test_regen cpu|cuda SCENE W H SPP ALGO... */
#include "rc_test.h"

#include <string.h>

int main(int argc, char **argv) {
    rc_backend b;
    if (argc < 7 || rc_backend_parse(argv[1], &b) != 0) {
        fprintf(stderr, "usage: test_regen cpu|cuda SCENE W H SPP ALGO...\n");
        return 2;
    }
    if (b == RC_BACKEND_CUDA) {
        char desc[256];
        if (!rc_have_cuda_backend() || rc_cuda_use_device(0, desc, sizeof desc) < 0) {
            printf("test_regen: SKIPPED (%s)\n", desc);
            return 77;
        }
    }
    rc_scene s;
    if (test_load(argv[2], &s) != 0) return 2;
    rc_settings st = test_settings(&s, (uint32_t)atoi(argv[3]), (uint32_t)atoi(argv[4]), "none",
                                   RC_MODE_INDICES);
    const uint32_t spp = (uint32_t)atoi(argv[5]);
    st.backend = b;
    st.schedule = RC_SCHEDULE_WAVES;
    st.samples_per_wave = 1;
    const size_t n = (size_t)st.width * st.height * 3, bytes = n * sizeof(int64_t);
    int64_t *ref = test_film(&s, &st, spp);
    CHECK(ref != NULL, "the waves schedule's film");
    st.seed = 1;
    int64_t *other = test_film(&s, &st, spp);
    CHECK(other && ref && memcmp(other, ref, bytes) != 0, "another seed gives another film");
    free(other);
    st.seed = 0;
    if (b == RC_BACKEND_CUDA) { /* extend's ray fetch finds the hits one thread per slot does */
        st.tune.fetch = 0;
        int64_t *plain = test_film(&s, &st, spp);
        CHECK(plain && ref && memcmp(plain, ref, bytes) == 0,
              "extend one thread per slot (fetch 0): film differs from ray fetch");
        free(plain);
    }
    const uint32_t fetches[] = {RC_FETCH_BELOW, 1, 32, 0}; /* refetch thresholds, by pool */
    const uint32_t pixels = st.width * st.height;
    /* a pool of a few dozen paths takes more steps than the loop has: the tail ends the frame */
    const uint32_t pools[] = {37, pixels / 2 + 1, 4 * pixels, 0};
    const int loops = b == RC_BACKEND_CUDA ? 3 : 1;
    st.schedule = RC_SCHEDULE_REGEN;
    for (int a = 6; a < argc && ref; a++)
        for (int m = 0; m < 2; m++)
            for (int l = 0; l < loops; l++)
                for (size_t p = 0; p < sizeof pools / sizeof *pools; p++) {
                    st.algo = argv[a];
                    st.mode = (rc_mode)m;
                    st.frame_loop = (rc_frame_loop)l;
                    st.tune.pool = pools[p];
                    st.samples_per_wave = p % 2 ? 3 : 2; /* frames of several samples */
                    st.tune.fetch = fetches[p];
                    int64_t *f = test_film(&s, &st, spp);
                    CHECK(f && memcmp(f, ref, bytes) == 0,
                          "%s %s/%s loop %s, pool %u, %u samples a frame, fetch %u: film differs",
                          argv[1], argv[a], rc_mode_name(st.mode),
                          rc_frame_loop_name(st.frame_loop), pools[p], st.samples_per_wave,
                          st.tune.fetch);
                    free(f);
                }
    free(ref);
    rc_scene_free(&s);
    return test_finish("test_regen");
}
