/* bvh_wide.h: the compressed 8-wide BVH and its traversal (Ylitie, Karras & Laine, "Efficient
 * Incoherent Ray Traversal on GPUs Through Compressed Wide BVHs", HPG 2017), part of bvh.h
 * (include that).
 *
 * bvh_wide.c collapses the binary tree of bvh_build.c into it over the same primitive array, so
 * a hit's primitive index means the same in both layouts. A node holds its eight children's
 * boxes quantised to 8 bits an axis on a grid of its own (sec. 3.3); its interior children are
 * consecutive nodes from child_base, the primitives of its leaf children consecutive from
 * prim_base. The traversal (sec. 4) keeps groups, a base index and a 32-bit mask of what is
 * left to visit below it, on its stack, visits a node's children nearest first by the ray's
 * octant (sec. 3.2) and tests primitives with the binary layout's rc_hit_take, so both layouts
 * return the same (t, prim) for every ray. */
#ifndef RC_BVH_WIDE_H
#define RC_BVH_WIDE_H

#ifndef RC_BVH_H
#error "bvh_wide.h is part of bvh.h: include bvh.h"
#endif

/* One node, 80 bytes aligned to 16 (five 16-byte loads on the GPU).
 *   p, e:     child box k on axis a is p[a] + q * 2^(e[a] - 127) for q in qlo[a][k] ..
 *             qhi[a][k], rounded outwards, so it holds the child's exact box
 *   imask:    bit s: slot s is an interior node
 *   meta[s]:  0 an empty slot; an interior node: 0x20 | (24 + s), it is node child_base + the
 *             interior slots below s; a leaf: its primitive count in unary (1, 3, 7) above
 *             5 bits of offset, primitives prim_base + offset .. + count - 1 (sec. 3.3)
 * Slot s holds the child that lies farthest towards the corner (x, y, z) = bits 0, 1, 2 of s
 * (1: +, 0: -) of the node's box (sec. 3.2), so slots in the order k ^ oct, k = 0 .. 7, come
 * nearest first along a ray whose octant is oct (bit a set: d[a] < 0). */
struct rc_wide_node {
    RC_ALIGN16 float p[3];
    uint8_t e[3];
    uint8_t imask;
    uint32_t child_base;
    uint32_t prim_base;
    uint8_t meta[8];
    uint8_t qlo[3][8];
    uint8_t qhi[3][8];
};

/* Primitives a leaf slot holds at most: three bits of unary count in its meta byte. */
#define RC_WIDE_LEAF_MAX 3
/* The masks of a group: bits 24..31 the interior children still to visit, in the order k
 * (slot k ^ oct), with the node's imask in bits 0..7; or bits 0..23 a leaf primitive each. */
#define RC_WIDE_NODE_BITS 0xff000000u
#define RC_WIDE_PRIM_BITS 0x00ffffffu

RC_FN uint32_t rc_popc(uint32_t x) {
#if defined(__CUDA_ARCH__)
    return (uint32_t)__popc(x);
#else
    return (uint32_t)__builtin_popcount(x);
#endif
}
/* Index of the lowest set bit of x != 0. */
RC_FN uint32_t rc_lowest_bit(uint32_t x) {
#if defined(__CUDA_ARCH__)
    return (uint32_t)(__ffs(x) - 1);
#else
    return (uint32_t)__builtin_ctz(x);
#endif
}

/* 2^(e - 127) for a biased exponent 1 <= e <= 254. */
RC_FN float rc_wide_scale(uint32_t e) {
#if defined(__CUDA_ARCH__)
    return __uint_as_float(e << 23);
#else
    union {
        uint32_t u;
        float f;
    } b;
    b.u = e << 23;
    return b.f;
#endif
}

/* The ray as the box tests take it: inv = rc_safe_inverse(d), oct its octant. */
typedef struct rc_wide_ray {
    rc_vec3 o, d, inv;
    uint32_t oct;
} rc_wide_ray;

RC_FN rc_wide_ray rc_wide_ray_make(rc_vec3 o, rc_vec3 d) {
    rc_wide_ray r;
    r.o = o;
    r.d = d;
    r.inv = rc_safe_inverse(d);
    r.oct = (r.inv.x < 0.0f ? 1u : 0u) | (r.inv.y < 0.0f ? 2u : 0u) | (r.inv.z < 0.0f ? 4u : 0u);
    return r;
}

/* Slab test of a node's eight children against (0, tmax) (sec. 4, "node intersection": the
 * grid's origin and scale are taken into the ray once, t = q * (scale / d) + (p - o) / d, one
 * multiply-add a plane, the near plane of each axis by the ray's sign). Boxes whose entry is
 * <= their exit count, as rc_box_enter's. Returns the children hit as a group mask: bit 24 +
 * (s ^ oct) for an interior slot s, its primitives' bits for a leaf slot. */
RC_FN uint32_t rc_wide_children(const rc_wide_node *n, const rc_wide_ray *r, float tmax) {
    const float sx = rc_wide_scale(n->e[0]) * r->inv.x, bx = (n->p[0] - r->o.x) * r->inv.x;
    const float sy = rc_wide_scale(n->e[1]) * r->inv.y, by = (n->p[1] - r->o.y) * r->inv.y;
    const float sz = rc_wide_scale(n->e[2]) * r->inv.z, bz = (n->p[2] - r->o.z) * r->inv.z;
    const int nx = (r->oct & 1u) != 0u, ny = (r->oct & 2u) != 0u, nz = (r->oct & 4u) != 0u;
    uint32_t hits = 0u;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int s = 0; s < 8; s++) {
        const uint32_t m = n->meta[s];
        const float x0 = RC_FMA((float)(nx ? n->qhi[0][s] : n->qlo[0][s]), sx, bx);
        const float x1 = RC_FMA((float)(nx ? n->qlo[0][s] : n->qhi[0][s]), sx, bx);
        const float y0 = RC_FMA((float)(ny ? n->qhi[1][s] : n->qlo[1][s]), sy, by);
        const float y1 = RC_FMA((float)(ny ? n->qlo[1][s] : n->qhi[1][s]), sy, by);
        const float z0 = RC_FMA((float)(nz ? n->qhi[2][s] : n->qlo[2][s]), sz, bz);
        const float z1 = RC_FMA((float)(nz ? n->qlo[2][s] : n->qhi[2][s]), sz, bz);
        const float tnear = fmaxf(fmaxf(x0, y0), fmaxf(z0, 0.0f));
        const float tfar = fminf(fminf(x1, y1), fminf(z1, tmax));
        if (m != 0u && tnear <= tfar) {
            const uint32_t bit = (m & 31u) ^ ((n->imask >> s) & 1u ? r->oct : 0u);
            hits |= (m >> 5) << bit;
        }
    }
    return hits;
}

/* The node a group's lowest pending interior bit names, that bit cleared from *hits. */
RC_FN uint32_t rc_wide_next_child(uint32_t base, uint32_t *hits, uint32_t oct) {
    const uint32_t bit = rc_lowest_bit(*hits & RC_WIDE_NODE_BITS);
    const uint32_t slot = (bit - 24u) ^ oct;
    *hits &= ~(1u << bit);
    return base + rc_popc(*hits & ((1u << slot) - 1u) & 0xffu);
}

/* One nearest-hit traversal of the wide layout in progress, as rc_trav is for the binary one:
 * the ray, the nearest hit so far and the node group being visited; the stack of groups still
 * to visit is apart (rc_wtrav_stack) for the same reason. At most one group is pushed a level
 * of the tree, which is no deeper than the binary tree (RC_BVH_STACK). */
typedef struct rc_wtrav {
    rc_wide_ray r;
    float tmin;
    rc_hit hit;
    uint32_t base, hits; /* the node group being visited */
    int top;
} rc_wtrav;
typedef struct rc_wtrav_stack {
    uint32_t base[RC_BVH_STACK];
    uint32_t hits[RC_BVH_STACK];
} rc_wtrav_stack;

/* Start a traversal for the nearest hit in (tmin, tmax); 0: nothing to visit (an empty
 * scene), s->hit is already the answer. The first group is the root alone. */
RC_FN int rc_wtrav_begin(const rc_bvh_view *bvh, rc_wtrav *s, rc_vec3 o, rc_vec3 d, float tmin,
                         float tmax) {
    s->hit.t = tmax;
    s->hit.prim = RC_NO_PRIM;
    s->top = 0;
    if (bvh->num_wide == 0) return 0;
    s->r = rc_wide_ray_make(o, d);
    s->tmin = tmin;
    s->base = 0u;
    s->hits = 1u << (24u + s->r.oct); /* slot 0 with imask 0: node 0 */
    return 1;
}

/* Visit one node: the current group's nearest pending child (the rest of the group is pushed
 * when some is left), its children's boxes against the nearest hit so far, then the primitives
 * of the leaf children hit, in index order; the interior children hit become the current
 * group, or, when none was, the next group is popped. 0: the traversal is over and s->hit is
 * the nearest hit. */
RC_FN int rc_wtrav_step(const rc_bvh_view *bvh, rc_wtrav *s, rc_wtrav_stack *k) {
    RC_PROBE_TRAV(bvh, RC_PROBE_EXTEND_NODE);
    const uint32_t child = rc_wide_next_child(s->base, &s->hits, s->r.oct);
    if (s->hits & RC_WIDE_NODE_BITS) {
        k->base[s->top] = s->base;
        k->hits[s->top] = s->hits;
        s->top++;
    }
    const rc_wide_node n = bvh->wide[child];
    const uint32_t hits = rc_wide_children(&n, &s->r, s->hit.t);
    s->base = n.child_base;
    s->hits = (hits & RC_WIDE_NODE_BITS) | n.imask;
    for (uint32_t p = hits & RC_WIDE_PRIM_BITS; p != 0u; p &= p - 1u)
        rc_hit_take(bvh, n.prim_base + rc_lowest_bit(p), s->r.o, s->r.d, s->tmin, &s->hit);
    if (s->hits & RC_WIDE_NODE_BITS) return 1;
    if (s->top == 0) return 0;
    s->top--;
    s->base = k->base[s->top];
    s->hits = k->hits[s->top];
    return 1;
}

/* Nearest hit in (tmin, tmax) in the wide layout (rc_wtrav_step to the end). */
RC_FN rc_hit rc_wide_intersect(const rc_bvh_view *bvh, rc_vec3 o, rc_vec3 d, float tmin,
                               float tmax) {
    rc_wtrav s;
    rc_wtrav_stack k;
    if (rc_wtrav_begin(bvh, &s, o, d, tmin, tmax))
        while (rc_wtrav_step(bvh, &s, &k)) {
        }
    return s.hit;
}

/* Any hit in (tmin, tmax) in the wide layout: 1 at the first primitive that counts. */
RC_FN int rc_wide_occluded(const rc_bvh_view *bvh, rc_vec3 o, rc_vec3 d, float tmin, float tmax) {
    if (bvh->num_wide == 0) return 0;
    const rc_wide_ray r = rc_wide_ray_make(o, d);
    uint32_t kbase[RC_BVH_STACK], khits[RC_BVH_STACK];
    int top = 0;
    uint32_t base = 0u, ghits = 1u << (24u + r.oct);
    for (;;) {
        const uint32_t child = rc_wide_next_child(base, &ghits, r.oct);
        if (ghits & RC_WIDE_NODE_BITS) {
            kbase[top] = base;
            khits[top] = ghits;
            top++;
        }
        const rc_wide_node n = bvh->wide[child];
        const uint32_t hits = rc_wide_children(&n, &r, tmax);
        for (uint32_t p = hits & RC_WIDE_PRIM_BITS; p != 0u; p &= p - 1u) {
            float t;
            const uint32_t i = n.prim_base + rc_lowest_bit(p);
            const rc_prim *pr = &bvh->prims[i];
            if (rc_prim_hit(pr, o, d, tmin, tmax, &t) && rc_hit_counts(bvh, pr, i, o, d)) return 1;
        }
        base = n.child_base;
        ghits = (hits & RC_WIDE_NODE_BITS) | n.imask;
        if (ghits & RC_WIDE_NODE_BITS) continue;
        if (top == 0) return 0;
        top--;
        base = kbase[top];
        ghits = khits[top];
    }
}

#endif /* RC_BVH_WIDE_H */
