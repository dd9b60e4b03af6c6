/* test_gpu_wide.c: the wide BVH layout on the CUDA backend: the wavefront loop (extend, shadow,
 * and with --tail-below the tail kernels) and the bvh and persistent megakernels render with
 * --bvh wide the bytes they render with --bvh binary, and the CUDA image agrees with the CPU's
 * within the tolerance of test_gpu_agree (16x16 block means). Exits 77 (skipped) without a
 * usable CUDA device. Usage: test_gpu_wide SCENE WIDTH HEIGHT SPP TOLERANCE */
#include "rc_test.h"
#include "wavefront/megakernel.h"

#include <string.h>

static float *render(rc_scene *s, uint32_t layout, rc_backend b, uint32_t w, uint32_t h,
                     uint32_t spp, uint32_t tail) {
    s->bvh.layout = layout;
    rc_settings st = test_settings(s, w, h, "scan-scatter", RC_MODE_INDICES);
    st.backend = b;
    st.tune.tail_below = tail;
    return test_render(s, &st, spp);
}

static int same(const float *a, const float *b, uint32_t w, uint32_t h) {
    return a && b && memcmp(a, b, (size_t)w * h * 3 * sizeof(float)) == 0;
}

int main(int argc, char **argv) {
    rc_scene s;
    int started = test_start("test_gpu_wide", argc >= 6, "SCENE WIDTH HEIGHT SPP TOLERANCE",
                             "scan-scatter", argv, 1, &s);
    if (started != 0) return started;
    uint32_t w = (uint32_t)atoi(argv[2]), h = (uint32_t)atoi(argv[3]);
    uint32_t spp = (uint32_t)atoi(argv[4]);
    double tol = atof(argv[5]);
    float *cpu = render(&s, RC_BVH_BINARY, RC_BACKEND_CPU, w, h, spp, 0);
    float *bin = render(&s, RC_BVH_BINARY, RC_BACKEND_CUDA, w, h, spp, 0);
    float *wide = render(&s, RC_BVH_WIDE, RC_BACKEND_CUDA, w, h, spp, 0);
    CHECK(cpu && bin && wide, "render failed");
    CHECK(same(bin, wide, w, h), "cuda: --bvh wide differs from --bvh binary");
    if (cpu && wide) {
        double block = rc_image_block_rmse(cpu, wide, w, h, 16);
        printf("%s %ux%u %u spp: CPU vs CUDA --bvh wide block RMSE %.5f (tolerance %.5f)\n",
               argv[1], w, h, spp, block, tol);
        CHECK(block <= tol, "block RMSE %g over tolerance %g", block, tol);
    }
    /* the tail kernels take every bounce's stream */
    float *tb = render(&s, RC_BVH_BINARY, RC_BACKEND_CUDA, w, h, spp, 1u << 30);
    float *tw = render(&s, RC_BVH_WIDE, RC_BACKEND_CUDA, w, h, spp, 1u << 30);
    CHECK(same(tb, tw, w, h), "cuda tail: --bvh wide differs from --bvh binary");
    /* the megakernels that trace the BVH */
    rc_megakernel_kind kinds[] = {RC_MEGAKERNEL_BVH, RC_MEGAKERNEL_PERSISTENT};
    size_t bytes = (size_t)w * h * 3 * sizeof(float);
    float *mk[2] = {malloc(bytes), malloc(bytes)};
    for (int k = 0; k < 2; k++) {
        rc_settings st = test_settings(&s, w, h, "scan-scatter", RC_MODE_INDICES);
        st.backend = RC_BACKEND_CUDA;
        rc_megakernel_result res;
        rc_error err;
        int ok = mk[0] && mk[1];
        for (uint32_t l = 0; l < 2 && ok; l++) {
            s.bvh.layout = l;
            ok = rc_megakernel_render(&s, &st, kinds[k], spp, 1, mk[l], &res, &err) == 0;
            CHECK(ok, "%s megakernel: %s", rc_megakernel_name(kinds[k]), err.msg);
        }
        CHECK(!ok || same(mk[0], mk[1], w, h), "%s megakernel: --bvh wide differs",
              rc_megakernel_name(kinds[k]));
    }
    free(mk[0]);
    free(mk[1]);
    free(cpu);
    free(bin);
    free(wide);
    free(tb);
    free(tw);
    rc_scene_free(&s);
    return test_finish("test_gpu_wide");
}
