/* bsdf_check.cu: compiles app/core/bsdf.h as CUDA and calls each of its functions from a
 * kernel, so a part that only builds as C fails the build. */
#include "core/bsdf.h"

__global__ void rc_bsdf_check_kernel(const rc_bsdf *b, const rc_material *m, rc_vec3 *out,
                                     float *pdf, uint32_t n) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    rc_frame f = rc_frame_from_normal_tangent(rc_normalize(rc_v3(0.1f, 0.2f, 1.0f)),
                                              rc_v3(1.0f, 0.0f, 0.0f));
    rc_frame h = rc_frame_from_hit(rc_v3(0.0f, 0.0f, 1.0f), (int)(i & 1u));
    rc_vec3 wo = rc_frame_to_local(&f, rc_normalize(rc_v3(0.3f, 0.1f, 0.9f)));
    rc_bsdf c = rc_bsdf_from_material(&m[i]);
    rc_bsdf_sampled s;
    out[i] = rc_v3s(0.0f);
    pdf[i] = 0.0f;
    if (rc_bsdf_sample(&b[i], wo, 0.3f, 0.4f, 0.5f, &s)) {
        out[i] = rc_add(rc_frame_to_world(&h, s.wi), rc_bsdf_eval(&b[i], wo, s.wi));
        pdf[i] = rc_bsdf_pdf(&b[i], wo, s.wi) + s.pdf;
    }
    pdf[i] += (float)rc_bsdf_nee_worthwhile(rc_bsdf_flags(&c));
}
