/* bvh_build_scalar.c: app/core/bvh_build.c compiled without its SSE code (RC_BVH_SCALAR), its
 * functions renamed scalar_*, so that test_bvh_reference can hold its tree against the one the
 * renderer's build (SSE on x86-64) makes: they must be the same bytes. */
#define RC_BVH_SCALAR     1
#define rc_prim_bounds    scalar_rc_prim_bounds
#define rc_bvh_build      scalar_rc_bvh_build
#define rc_bvh_build_take scalar_rc_bvh_build_take
#define rc_bvh_permute    scalar_rc_bvh_permute
#define rc_bvh_free       scalar_rc_bvh_free
#define rc_bvh_view_of    scalar_rc_bvh_view_of
#define rc_bvh_sah_cost   scalar_rc_bvh_sah_cost
#define rc_bvh_depth      scalar_rc_bvh_depth
#include "core/bvh_build.c"
