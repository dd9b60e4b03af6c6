/* test_gpu_agree.c: the CUDA backend renders what the CPU backend renders, and every CUDA
 * compaction algorithm (and `none`, both modes) gives a bit-identical image on the GPU.
 * CPU and GPU round some maths differently (fused multiply-add, sinf, powf), so their paths
 * part ways and the images differ by noise: they are compared like test_reference, on
 * 16x16 block means, with a tolerance stated by the caller. Exits 77 (skipped) without a
 * usable CUDA device. Usage: test_gpu_agree SCENE WIDTH HEIGHT SPP TOLERANCE [--algorithms] */
#include "rc_test.h"
#include "wavefront/compact.h"

#include <string.h>

static float *render_on(const rc_scene *s, rc_backend b, const char *algo, rc_mode mode, uint32_t w,
                        uint32_t h, uint32_t spp) {
    rc_settings st;
    rc_settings_init(&st, s);
    st.width = w;
    st.height = h;
    st.backend = b;
    st.algo = algo;
    st.mode = mode;
    return test_render(s, &st, spp);
}

/* Every algorithm the library implements on CUDA, `none` included, both modes. */
static void algorithms(const rc_scene *s) {
    float *ref = render_on(s, RC_BACKEND_CUDA, "none", RC_MODE_INDICES, 40, 40, 4);
    CHECK(ref != NULL, "cuda none/indices failed");
    if (!ref) return;
    const char *names[64];
    size_t n = rc_compact_names(RC_BACKEND_CUDA, names, 64);
    for (size_t i = 0; i < n; i++) {
        for (int m = 0; m < 2; m++) {
            rc_error err;
            if (rc_compact_check(names[i], RC_BACKEND_CUDA, &err) != 0) {
                printf("  %-14s %-8s skipped: %s\n", names[i], rc_mode_name((rc_mode)m), err.msg);
                continue;
            }
            float *img = render_on(s, RC_BACKEND_CUDA, names[i], (rc_mode)m, 40, 40, 4);
            int same = img && memcmp(img, ref, 40 * 40 * 3 * sizeof(float)) == 0;
            CHECK(same, "cuda %s/%s: image differs from none/indices", names[i],
                  rc_mode_name((rc_mode)m));
            if (same) printf("  %-14s %-8s identical\n", names[i], rc_mode_name((rc_mode)m));
            free(img);
        }
    }
    free(ref);
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: test_gpu_agree SCENE WIDTH HEIGHT SPP TOLERANCE [--algorithms]\n");
        return 2;
    }
    rc_error err;
    if (!rc_have_cuda_backend()) {
        printf("test_gpu_agree: skipped: this build has no CUDA backend\n");
        return 77;
    }
    if (rc_compact_check("scan-scatter", RC_BACKEND_CUDA, &err) != 0) {
        printf("test_gpu_agree: skipped: %s\n", err.msg);
        return 77;
    }
    rc_scene s;
    if (rc_scene_load(argv[1], &s, &err) != 0) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    uint32_t w = (uint32_t)atoi(argv[2]), h = (uint32_t)atoi(argv[3]);
    uint32_t spp = (uint32_t)atoi(argv[4]);
    double tol = atof(argv[5]);
    float *cpu = render_on(&s, RC_BACKEND_CPU, "scan-scatter", RC_MODE_INDICES, w, h, spp);
    float *gpu = render_on(&s, RC_BACKEND_CUDA, "scan-scatter", RC_MODE_INDICES, w, h, spp);
    CHECK(cpu && gpu, "render failed");
    if (cpu && gpu) {
        size_t n = (size_t)w * h * 3, same = 0, bad = 0;
        for (size_t i = 0; i < n; i++) {
            same += cpu[i] == gpu[i];
            bad += !isfinite(gpu[i]);
        }
        double block = test_block_rmse(cpu, gpu, w, h, 16);
        printf("%s %ux%u %u spp: CPU vs CUDA block RMSE %.5f (tolerance %.5f), %.1f%% of values "
               "bit-identical\n",
               argv[1], w, h, spp, block, tol, 100.0 * (double)same / (double)n);
        CHECK(bad == 0, "%zu GPU values are NaN or Inf", bad);
        CHECK(block <= tol, "block RMSE %g over tolerance %g", block, tol);
    }
    free(cpu);
    free(gpu);
    if (argc > 6 && strcmp(argv[6], "--algorithms") == 0) algorithms(&s);
    rc_scene_free(&s);
    return test_finish("test_gpu_agree");
}
