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
    rc_wide_node *wide; /* rc_bvh_build_wide's nodes, NULL before */
    uint32_t num_wide;
    uint32_t layout; /* the rc_bvh_layout rc_bvh_view_of hands the traversal */
    double wide_ms;  /* rc_bvh_build_wide's time, as the caller measured it */
    int input_order; /* prims still in input order (rc_bvh_build_deferred): leaf-order
                        primitive i is prims[ids[i]] until rc_bvh_build_wide or
                        rc_bvh_order puts them in leaf order */
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
/* The same build over the caller's malloc'd array `prims`, which becomes out->prims in leaf
 * order (reordered in place, no second copy; freed for n == 0). On failure (-1) `prims` is
 * untouched and still the caller's. */
int rc_bvh_build_take(rc_prim *prims, uint32_t n, rc_bvh *out);
/* rc_bvh_build_take without the reordering: out->prims keeps the input order (input_order
 * set) until rc_bvh_build_wide reorders them once into its order (one walk over the
 * primitives where two would be: the permutation is a pointer chase, a cache miss a step on
 * a large scene) or rc_bvh_order into the binary leaf order. Nothing traces such a tree. */
int rc_bvh_build_deferred(rc_prim *prims, uint32_t n, rc_bvh *out);
/* The primitives (of a deferred build) into leaf order; nothing for a tree already in it.
 * 0, or -1 when out of memory (the tree untouched). */
int rc_bvh_order(rc_bvh *bvh);
/* prims[i] (and ids[i], unless NULL) = the old ones at perm[i] for every i, in place: each
 * cycle of the permutation walked once, `done` (n bits, zeroed by the caller) marking the slots
 * filled. The build's and the wide collapse's reordering. */
void rc_bvh_permute(rc_prim *prims, uint32_t *ids, const uint32_t *perm, uint32_t n, uint8_t *done);
void rc_bvh_free(rc_bvh *bvh);
/* Collapse the binary tree into the compressed 8-wide one of bvh_wide.h (Ylitie et al. 2017):
 * from the root down, each wide node takes the binary node's two children and opens the
 * interior child of the largest surface area while the slots allow (a greedy collapse in place
 * of sec. 3.1's SAH optimisation); a leaf of more than RC_WIDE_LEAF_MAX primitives takes one
 * slot for each RC_WIDE_LEAF_MAX or fewer, with its own box. Slots by sec. 3.2's greedy octant
 * assignment, boxes quantised outwards (sec. 3.3). The primitives (and ids, and the binary
 * leaves' first) are reordered so that a wide node's leaf primitives are contiguous; a binary
 * leaf stays one contiguous range in its order, so the binary tree traces as before over the
 * new order and both layouts share the one primitive array. Linear in the nodes; the subtrees
 * below the third wide level are collapsed in parallel (trees of 65536 primitives or more),
 * with the one-thread result byte for byte. Leaves bvh->layout as it was. 0, or -1 when out of
 * memory (the binary tree untouched). */
int rc_bvh_build_wide(rc_bvh *bvh);
/* The same on one thread: the reference the parallel collapse is tested against. */
int rc_bvh_build_wide_serial(rc_bvh *bvh);
rc_bvh_view rc_bvh_view_of(const rc_bvh *bvh);
/* The tree's SAH cost with unit costs for a node visit and a primitive test, the measure the
 * build minimises (Wald 2007, eq. 1; MacDonald & Booth 1990): the sum over interior nodes of
 * their area and over leaves of area times primitive count, over the root's area. 0 for an
 * empty tree. */
double rc_bvh_sah_cost(const rc_bvh *bvh);
/* Depth of the deepest leaf (the root has depth 0). */
uint32_t rc_bvh_depth(const rc_bvh *bvh);
/* The bytes of the nodes of the tree's layout (bvh->layout) and of its primitives: what the
 * traversal reads on the device. */
size_t rc_bvh_device_bytes(const rc_bvh *bvh);
/* "binary" / "wide", and back (0, or -1 for another name). */
const char *rc_bvh_layout_name(uint32_t layout);
int rc_bvh_layout_parse(const char *s, uint32_t *out);

#ifdef __cplusplus
}
#endif
#endif /* RC_BVH_BUILD_H */
