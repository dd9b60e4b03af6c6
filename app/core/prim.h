/* prim.h: the primitives (sphere, quad, triangle) in one flat record with a type tag, and
 * their ray intersection and surface normal. */
#ifndef RC_PRIM_H
#define RC_PRIM_H

#include "vec.h"

enum { RC_PRIM_SPHERE = 0, RC_PRIM_QUAD = 1, RC_PRIM_TRIANGLE = 2 };

/* type_mat packs three fields: bits 0..1 the type (RC_PRIM_*), bits 2..30 the material index,
 * bit 31 RC_PRIM_MASKED: the material is alpha-masked (alpha.h), so a hit on it is tested
 * against its alpha before it counts (set by rc_scene_finish). */
#define RC_PRIM_TYPE_BITS     2u
#define RC_PRIM_TYPE_MASK     0x3u
#define RC_PRIM_MASKED        0x80000000u
#define RC_PRIM_MAX_MATERIALS (1u << (31u - RC_PRIM_TYPE_BITS))

/* One primitive, 48 bytes aligned to 16 (three 16-byte loads on the GPU), the same layout on
 * the host and the device.
 *   sphere:   p = centre, r = radius (negative: normals point inwards, a hollow shell)
 *   quad:     p = corner Q, a = edge u, b = edge v (the points Q + alpha u + beta v, 0..1)
 *   triangle: p = vertex 0, a = vertex 1 - vertex 0, b = vertex 2 - vertex 0 */
typedef struct rc_prim {
    RC_ALIGN16 rc_vec3 p;
    float r;
    rc_vec3 a;
    uint32_t type_mat;
    rc_vec3 b;
    float pad; /* keeps the record at 48 bytes */
} rc_prim;

RC_FN uint32_t rc_prim_type(const rc_prim *pr) {
    return pr->type_mat & RC_PRIM_TYPE_MASK;
}
RC_FN uint32_t rc_prim_material(const rc_prim *pr) {
    return (pr->type_mat & ~RC_PRIM_MASKED) >> RC_PRIM_TYPE_BITS;
}
RC_FN uint32_t rc_prim_pack(uint32_t type, uint32_t material) {
    return (material << RC_PRIM_TYPE_BITS) | type;
}

/* Sphere: the form of Ray Tracing Gems ch. 7 (Haines et al.), which measures the ray's
 * distance to the centre through l = f + b d instead of b^2 - c, so a large sphere (the
 * RTIOW ground, radius 1000) keeps its precision in float. `d` is unit length. */
RC_FN int rc_sphere_hit(const rc_prim *pr, rc_vec3 o, rc_vec3 d, float tmin, float tmax, float *t) {
    rc_vec3 f = rc_sub(o, pr->p);
    float b = -rc_dot(f, d);
    rc_vec3 l = rc_add(f, rc_scale(d, b));
    float disc = pr->r * pr->r - rc_dot(l, l);
    if (!(disc >= 0.0f)) return 0;
    float s = sqrtf(disc);
    float t0 = b - s, t1 = b + s;
    if (t0 > tmin && t0 < tmax) {
        *t = t0;
        return 1;
    }
    if (t1 > tmin && t1 < tmax) {
        *t = t1;
        return 1;
    }
    return 0;
}

/* Quad (RTIOW "The Next Week" §6): hit the plane, then express the point in the (u, v) frame
 * with w = n / (n . n) and accept 0 <= alpha, beta <= 1. */
RC_FN int rc_quad_hit(const rc_prim *pr, rc_vec3 o, rc_vec3 d, float tmin, float tmax, float *t) {
    rc_vec3 n = rc_cross(pr->a, pr->b);
    float nn = rc_dot(n, n);
    float denom = rc_dot(n, d);
    if (denom == 0.0f || nn == 0.0f) return 0;
    float th = rc_dot(n, rc_sub(pr->p, o)) / denom;
    if (!(th > tmin && th < tmax)) return 0;
    rc_vec3 hp = rc_sub(rc_add(o, rc_scale(d, th)), pr->p);
    float alpha = rc_dot(n, rc_cross(hp, pr->b)) / nn;
    float beta = rc_dot(n, rc_cross(pr->a, hp)) / nn;
    if (!(alpha >= 0.0f && alpha <= 1.0f && beta >= 0.0f && beta <= 1.0f)) return 0;
    *t = th;
    return 1;
}

/* Triangle: Moeller & Trumbore 1997. The negated comparisons also reject NaN, which a
 * degenerate triangle (det = 0) produces. */
RC_FN int rc_triangle_hit(const rc_prim *pr, rc_vec3 o, rc_vec3 d, float tmin, float tmax,
                          float *t) {
    rc_vec3 pv = rc_cross(d, pr->b);
    float det = rc_dot(pr->a, pv);
    if (det == 0.0f) return 0;
    float inv = 1.0f / det;
    rc_vec3 tv = rc_sub(o, pr->p);
    float u = rc_dot(tv, pv) * inv;
    if (!(u >= 0.0f && u <= 1.0f)) return 0;
    rc_vec3 qv = rc_cross(tv, pr->a);
    float v = rc_dot(d, qv) * inv;
    if (!(v >= 0.0f && u + v <= 1.0f)) return 0;
    float th = rc_dot(pr->b, qv) * inv;
    if (!(th > tmin && th < tmax)) return 0;
    *t = th;
    return 1;
}

RC_FN int rc_prim_hit(const rc_prim *pr, rc_vec3 o, rc_vec3 d, float tmin, float tmax, float *t) {
    switch (rc_prim_type(pr)) {
    case RC_PRIM_SPHERE:
        return rc_sphere_hit(pr, o, d, tmin, tmax, t);
    case RC_PRIM_QUAD:
        return rc_quad_hit(pr, o, d, tmin, tmax, t);
    default:
        return rc_triangle_hit(pr, o, d, tmin, tmax, t);
    }
}

/* Unit geometric normal at surface point x (outward for spheres of positive radius). */
RC_FN rc_vec3 rc_prim_normal(const rc_prim *pr, rc_vec3 x) {
    if (rc_prim_type(pr) == RC_PRIM_SPHERE)
        return rc_scale(rc_normalize(rc_sub(x, pr->p)), pr->r < 0.0f ? -1.0f : 1.0f);
    return rc_normalize(rc_cross(pr->a, pr->b));
}

#endif /* RC_PRIM_H */
