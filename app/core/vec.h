/* vec.h: three-component float vectors for points, directions and RGB colours. */
#ifndef RC_VEC_H
#define RC_VEC_H

#include "rc_hd.h"

/* a * b + c. On the GPU one fused multiply-add, written out: the kernels are compiled with
 * --fmad=false, so the compiler contracts nothing by itself and every kernel that runs the
 * same per-path code rounds it the same way (the shade phase, the tail kernels and the
 * megakernels must give the same bytes; docs/design.md). On the host a multiply and an add,
 * which the dot product below orders so that it rounds as the plain C form
 * a.x * b.x + a.y * b.y + a.z * b.z does. (The cross product stays plain: with its multiply-adds
 * written out, extend's traversal spilled at its 48-register bound.) */
#if defined(__CUDA_ARCH__)
#define RC_FMA(a, b, c) __fmaf_rn((a), (b), (c))
#else
#define RC_FMA(a, b, c) ((a) * (b) + (c))
#endif

typedef struct rc_vec3 {
    float x, y, z;
} rc_vec3;

RC_FN rc_vec3 rc_v3(float x, float y, float z) {
    rc_vec3 r;
    r.x = x;
    r.y = y;
    r.z = z;
    return r;
}
RC_FN rc_vec3 rc_v3s(float s) {
    return rc_v3(s, s, s);
}
RC_FN rc_vec3 rc_add(rc_vec3 a, rc_vec3 b) {
    return rc_v3(a.x + b.x, a.y + b.y, a.z + b.z);
}
RC_FN rc_vec3 rc_sub(rc_vec3 a, rc_vec3 b) {
    return rc_v3(a.x - b.x, a.y - b.y, a.z - b.z);
}
RC_FN rc_vec3 rc_mul(rc_vec3 a, rc_vec3 b) {
    return rc_v3(a.x * b.x, a.y * b.y, a.z * b.z);
}
RC_FN rc_vec3 rc_scale(rc_vec3 a, float s) {
    return rc_v3(a.x * s, a.y * s, a.z * s);
}
RC_FN rc_vec3 rc_neg(rc_vec3 a) {
    return rc_v3(-a.x, -a.y, -a.z);
}
RC_FN float rc_dot(rc_vec3 a, rc_vec3 b) {
    return RC_FMA(a.z, b.z, RC_FMA(a.y, b.y, a.x * b.x));
}
RC_FN rc_vec3 rc_cross(rc_vec3 a, rc_vec3 b) {
    return rc_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
RC_FN float rc_length(rc_vec3 a) {
    return sqrtf(rc_dot(a, a));
}
/* The zero vector stays zero instead of becoming NaN. */
RC_FN rc_vec3 rc_normalize(rc_vec3 a) {
    float l = rc_length(a);
    return l > 0.0f ? rc_scale(a, 1.0f / l) : a;
}
RC_FN rc_vec3 rc_min3(rc_vec3 a, rc_vec3 b) {
    return rc_v3(fminf(a.x, b.x), fminf(a.y, b.y), fminf(a.z, b.z));
}
RC_FN rc_vec3 rc_max3(rc_vec3 a, rc_vec3 b) {
    return rc_v3(fmaxf(a.x, b.x), fmaxf(a.y, b.y), fmaxf(a.z, b.z));
}
RC_FN float rc_max_comp(rc_vec3 a) {
    return fmaxf(a.x, fmaxf(a.y, a.z));
}
RC_FN float rc_max_abs(rc_vec3 a) {
    return fmaxf(fabsf(a.x), fmaxf(fabsf(a.y), fabsf(a.z)));
}
/* a + t (b - a) */
RC_FN rc_vec3 rc_lerp(rc_vec3 a, rc_vec3 b, float t) {
    return rc_add(rc_scale(a, 1.0f - t), rc_scale(b, t));
}
/* Component by axis number 0, 1, 2. */
RC_FN float rc_axis(rc_vec3 a, int axis) {
    return axis == 0 ? a.x : (axis == 1 ? a.y : a.z);
}
/* Mirror d about the plane with unit normal n. */
RC_FN rc_vec3 rc_reflect(rc_vec3 d, rc_vec3 n) {
    return rc_sub(d, rc_scale(n, 2.0f * rc_dot(d, n)));
}

#endif /* RC_VEC_H */
