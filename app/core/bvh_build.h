/* bvh_build.h: build the BVH of bvh.h on the host. */
#ifndef RC_BVH_BUILD_H
#define RC_BVH_BUILD_H

#include "bvh.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A built hierarchy: owns its nodes, its copy of the primitives in leaf order and the
 * permutation between the orders, so that data kept per input primitive can follow it. */
typedef struct rc_bvh {
    rc_bvh_node *nodes;
    rc_prim *prims;
    uint32_t *ids; /* leaf-order primitive i is input primitive ids[i] */
    uint32_t num_nodes;
    uint32_t num_prims;
} rc_bvh;

/* Axis-aligned bounds of one primitive, padded a little so that flat primitives (quads,
 * axis-aligned triangles) keep a box of non-zero thickness. */
void rc_prim_bounds(const rc_prim *p, float lo[3], float hi[3]);

/* Binned SAH build (Wald 2007, "On fast construction of SAH-based bounding volume
 * hierarchies"): 16 bins per axis on the centroid bounds; a node becomes a leaf when that is
 * cheaper than its best split and holds at most RC_BVH_LEAF_MAX primitives. Deeper than
 * RC_BVH_SAH_DEPTH the build splits at the object median, which keeps every tree within
 * RC_BVH_STACK levels. Deterministic: the top of the tree is binned over all OpenMP threads
 * and the subtrees below are built side by side, and the tree is the same node for node as the
 * one-thread build's whatever the thread count. Returns 0, or -1 when out of memory (`out`
 * zeroed). */
#define RC_BVH_BINS      16
#define RC_BVH_LEAF_MAX  4
#define RC_BVH_SAH_DEPTH 30
int rc_bvh_build(const rc_prim *prims, uint32_t n, rc_bvh *out);
void rc_bvh_free(rc_bvh *bvh);
rc_bvh_view rc_bvh_view_of(const rc_bvh *bvh);
/* The tree's SAH cost with unit costs for a node visit and a primitive test, the measure the
 * build minimises (Wald 2007, eq. 1; MacDonald & Booth 1990): the sum over interior nodes of
 * their area and over leaves of area times primitive count, over the root's area. 0 for an
 * empty tree. */
double rc_bvh_sah_cost(const rc_bvh *bvh);
/* Depth of the deepest leaf (the root has depth 0). */
uint32_t rc_bvh_depth(const rc_bvh *bvh);

#ifdef __cplusplus
}
#endif
#endif /* RC_BVH_BUILD_H */
