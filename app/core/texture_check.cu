/* texture_check.cu: compiles texture.h and envmap.h as CUDA and calls each function from a
 * kernel, so a header that only builds as C fails the build. */
#include "core/envmap.h"
#include "core/texture.h"

__global__ void rc_texture_check_kernel(const rc_texture_view *tv, const rc_env_view *ev,
                                        rc_rgba *out, rc_vec3 *rgb, float *pdf, uint32_t n) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float u = (float)i / (float)n, v = 1.0f - u;
    rc_cone c = rc_cone_primary(0.8f, 720.0f);
    c = rc_cone_propagate(c, 2.0f, 0.0f);
    float delta =
        rc_tri_lod_constant(rc_v3(0, 0, 0), rc_v3(1, 0, 0), rc_v3(0, 1, 0), 0, 0, 1, 0, 0, 1);
    float lod = rc_tex_cone_lod(tv, 0, delta, rc_cone_width_at(c, 1.0f), 0.7f);
    lod += rc_cone_lod(delta, c.width, 0.5f, 256.0f, 256.0f);
    float xf[6];
    rc_tex_transform_make(0.1f, 0.2f, 0.3f, 2.0f, 2.0f, xf);
    out[i] = rc_tex_sample(tv, i % 4u, u * xf[0], v, lod);
    rc_vec3 d;
    rgb[i] = rc_env_sample(ev, u, v, &d, &pdf[i]);
    pdf[i] += rc_env_pdf(ev, d);
    rgb[i] = rc_add(rgb[i], rc_env_radiance(ev, d));
}
