/* core_check.cu: compiles every per-ray header as CUDA and calls each function from a kernel,
 * so a header that only builds as C fails the build. */
#include "core/path.h"

__global__ void rc_core_check_kernel(const rc_scene_view *sc, rc_path *paths, rc_vec3 *rgb,
                                     rc_shadow *shadows, uint32_t n) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    rc_shade_params sp = {0u, 8u, RC_RR_DEPTH, 256u, 1u, 0u};
    rc_path_generate(&sc->camera, 16u, 16u, i % 256u, 0u, i / 256u, 0u, &paths[i]);
    rc_path_extend(sc, &paths[i]);
    rc_path_shade(sc, &sp, &paths[i], rgb, &shadows[i]);
    if (shadows[i].slot & RC_PATH_ALIVE) rc_shadow_trace(sc, &shadows[i], rgb);
    rc_hit h = rc_brute_intersect(sc->bvh.prims, sc->bvh.num_prims, paths[i].origin, paths[i].dir,
                                  0.0f, INFINITY);
    if (h.prim == RC_NO_PRIM) rgb[i] = rc_background_radiance(&sc->background, paths[i].dir);
}
