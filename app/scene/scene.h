/* scene.h: a scene on the host: primitives, materials, camera, background, render defaults,
 * and its BVH. Loaded from a JSON file (scenes/FORMAT.md) or built in code (tests). */
#ifndef RC_SCENE_H
#define RC_SCENE_H

#include "../core/bvh_build.h"
#include "../core/scene_view.h"
#include "env_load.h"
#include "rc_error.h"
#include "texture_load.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Image settings a scene file may give (the command line overrides them). */
typedef struct rc_render_defaults {
    uint32_t width, height, spp, max_depth;
    int light_sampling; /* rc_light_sampling */
} rc_render_defaults;

/* How paths find light: `nee` samples a light at every diffuse or fuzzy vertex and weighs it
 * against the material's own sampling by MIS; `bsdf` only follows the material (a path
 * counts a light when it happens to hit it). */
typedef enum rc_light_sampling { RC_LIGHTS_NEE = 0, RC_LIGHTS_BSDF = 1 } rc_light_sampling;
const char *rc_light_sampling_name(int ls);
/* "nee" / "bsdf": 0, else -1. */
int rc_light_sampling_parse(const char *s, int *out);

#define RC_DEFAULT_WIDTH     640
#define RC_DEFAULT_HEIGHT    360
#define RC_DEFAULT_SPP       32
#define RC_DEFAULT_MAX_DEPTH 16
#define RC_MAX_DEPTH         64 /* the bounce count fits the path's 8-bit field with room */
#define RC_MAX_SIZE          16384

/* A mesh that instances place (inst.h): until rc_scene_finish the input primitives
 * [first, first + count) (they are drawn only through instances); then its own BVH in object
 * space (bvh, built binary and wide) and its primitives' vertex-data entries in that BVH's leaf
 * order (tri, NULL for none). */
typedef struct rc_scene_mesh {
    size_t first, count;
    rc_bvh bvh;
    uint32_t *tri;
    int built;
} rc_scene_mesh;

/* Instanced emitters the light table takes at most (entries over all instances); a scene with
 * more is refused. */
#define RC_INST_MAX_LIGHTS (1u << 22)

/* The instances of a scene as the traversal reads them (inst.h's rc_inst_view), made by
 * rc_scene_finish: the top-level BVH over the instances' world boxes, the instances in its leaf
 * order, the meshes' trees packed one after the other. */
typedef struct rc_scene_inst {
    rc_bvh top;
    rc_instance *leaf;
    rc_inst_mesh *meshes;
    rc_bvh_node *nodes;
    rc_wide_node *wide;
    rc_prim *prims;
    uint32_t *prim_tri;
    uint32_t *light_rank;
    size_t num_nodes, num_wide, num_prims;
    uint64_t total_prims; /* the instanced primitives of all instances together */
} rc_scene_inst;

typedef struct rc_scene {
    /* in the order they were added, until rc_scene_finish hands them to the BVH, which holds
       them in leaf order (NULL here then; num_prims stays their count) */
    rc_prim *prims;
    size_t num_prims, cap_prims;
    rc_material *materials;
    size_t num_materials, cap_materials;
    rc_camera_desc camera;
    rc_background background;
    rc_render_defaults defaults;
    size_t num_spheres, num_quads, num_triangles;
    size_t num_degenerate; /* zero-area triangles of model files, dropped */
    size_t max_prims;      /* rc_scene_add_prim refuses more (0: no limit) */
    size_t max_mib;        /* the memory limit that set max_prims, for messages */
    rc_bvh bvh;            /* valid after rc_scene_finish */
    /* the light table (light.h), built by rc_scene_finish: leaf-order primitive indices of
       the emissive quads and spheres and the CDF of their power; bvh.prims[i].pad holds each
       one's selection probability */
    uint32_t *light_prims;
    float *light_cdf;
    uint32_t num_lights;
    double bvh_build_ms; /* time rc_scene_finish spent building it */
    double load_ms;      /* rc_scene_load_max: the whole load (reading, parsing, BVH) */
    double image_ms;     /* of it: texture pyramids built and environment maps read */
    /* vertex data of triangle meshes (surface.h): per vertex a normal (0 0 0: none) and a uv;
       per input primitive its entry of tri_vtx or RC_NO_TRI (NULL while no primitive has
       any); leaf_tri, the same in the BVH's leaf order, made by rc_scene_finish */
    float *normals, *uvs;
    size_t num_vertices, cap_normals, cap_uvs;
    int has_normals, has_uvs;
    uint32_t *tri_vtx;
    size_t num_tris, cap_tri_vtx;
    uint32_t *prim_tri; /* the first num_prim_tri primitives' entries; later ones have none */
    size_t num_prim_tri, cap_prim_tri;
    uint32_t *leaf_tri;
    /* optional per-vertex data beside normals and uvs: a second uv set (2 floats) and a
       linear RGBA colour (4 floats); NULL until the first vertex that has one, then one per
       vertex (defaults 0 0 and 1 1 1 1) */
    float *uv1s, *colors;
    size_t cap_uv1s, cap_colors;
    /* optional per-vertex tangents (glTF TANGENT: xyz a unit vector, w = +-1 the bitangent's
       handedness), 4 floats; NULL until the first vertex given one, then one per vertex
       (0 0 0 0 for the others: none, the tangent frame comes from the triangle's uvs) */
    float *tangents;
    size_t cap_tangents;
    /* the textures materials name (material.h's tex_* ids index it) */
    rc_texture_table textures;
    /* the environment (background.h RC_BG_ENV): the map and how it is placed */
    rc_env_map env;
    int has_env;
    float env_rotation; /* degrees about +Y */
    float env_scale;    /* radiance multiplier */
    /* the share of next-event estimation's samples that go to the environment (0 without
       one, 1 with no other light, 0.5 otherwise), set by rc_scene_finish */
    float env_prob;
    /* instances (inst.h): meshes in object space and their placements (input order, with
       each one's transform and its inverse; mesh, base and light set by rc_scene_finish) */
    rc_scene_mesh *meshes;
    size_t num_meshes, cap_meshes;
    rc_instance *instances;
    size_t num_instances, cap_instances;
    rc_scene_inst inst; /* valid after rc_scene_finish when num_instances > 0 */
} rc_scene;

/* An empty scene: no primitives, RTIOW sky, a camera at (0 0 1) looking at the origin. */
void rc_scene_init(rc_scene *s);
void rc_scene_free(rc_scene *s);
/* Append a material; returns its index, or -1 when out of memory or too many. */
long rc_scene_add_material(rc_scene *s, const rc_material *m);
/* Append a primitive (type tag and material index already packed); 0 or -1 (out of memory). */
int rc_scene_add_prim(rc_scene *s, const rc_prim *p);
int rc_scene_add_sphere(rc_scene *s, rc_vec3 center, float radius, uint32_t material);
int rc_scene_add_quad(rc_scene *s, rc_vec3 corner, rc_vec3 u, rc_vec3 v, uint32_t material);
int rc_scene_add_triangle(rc_scene *s, rc_vec3 a, rc_vec3 b, rc_vec3 c, uint32_t material);
/* Append a vertex's data: its normal (NULL or 0 0 0: none) and uv (NULL: 0 0). Returns its
 * index, or -1 when out of memory. */
long rc_scene_add_vertex(rc_scene *s, const float normal[3], const float uv[2]);
/* The same with a second uv set (NULL: 0 0) and a linear RGBA colour (NULL: 1 1 1 1). */
long rc_scene_add_vertex_full(rc_scene *s, const float normal[3], const float uv[2],
                              const float uv1[2], const float color[4]);
/* Give vertex v (< num_vertices) a tangent: xyz and the handedness w (glTF 2.0 sec.
 * 3.7.2.1: bitangent = cross(normal, xyz) * w). 0, or -1 (out of memory, or no such vertex). */
int rc_scene_set_tangent(rc_scene *s, size_t v, const float tangent[4]);
/* Give the scene an environment map (the scene takes `env` over; the background becomes
 * RC_BG_ENV): rotation in degrees about +Y, scale multiplies its radiance. */
void rc_scene_set_env(rc_scene *s, rc_env_map *env, float rotation_deg, float scale);
/* What the scene's arrays take on the device (BVH nodes and primitives, materials, the light
 * table, vertex data, textures, environment) and on the host (the same, and the input
 * primitives and the BVH's permutation), in bytes: the memory report of --stats. */
size_t rc_scene_device_bytes(const rc_scene *s);
size_t rc_scene_host_bytes(const rc_scene *s);
/* Host bytes of the scene's textures and environment (for the memory report and budget). */
size_t rc_scene_image_bytes(const rc_scene *s);
/* Vertices and triangles in bulk, for an importer that fills them from several threads:
 * rc_scene_vertices_begin makes room for `count` more vertices (the optional arrays too where
 * uv1, color or tangent asks or they exist) and returns the first's index (-1: out of memory);
 * the caller then writes every one of them with rc_scene_put_vertex (any thread, each index
 * once) and ends with rc_scene_vertices_end, which counts them and records whether any had a
 * normal or a uv. The same for triangles with vertex data: rc_scene_triangles_begin (-1: out
 * of memory, or more primitives than the scene may hold), rc_scene_put_triangle for each of
 * the `count` (primitive first + k, triangle num_tris + k as it was at the begin),
 * rc_scene_triangles_end. The result is that of adding them one by one with
 * rc_scene_add_vertex_full, rc_scene_set_tangent and rc_scene_add_triangle_vtx. Room is made once
 * (exactly, or half as much again where the arrays grow a second time), so reserving a whole model
 * first (rc_scene_reserve) leaves each array at its size. */
int rc_scene_reserve(rc_scene *s, size_t vertices, size_t triangles);
long rc_scene_vertices_begin(rc_scene *s, size_t count, int uv1, int color, int tangent);
void rc_scene_put_vertex(rc_scene *s, size_t v, const float normal[3], const float uv[2],
                         const float uv1[2], const float color[4], const float tangent[4]);
void rc_scene_vertices_end(rc_scene *s, size_t count, int any_normal, int any_uv);
long rc_scene_triangles_begin(rc_scene *s, size_t count);
void rc_scene_put_triangle(rc_scene *s, size_t prim, size_t tri, rc_vec3 a, rc_vec3 b, rc_vec3 c,
                           uint32_t material, const uint32_t vtx[3]);
void rc_scene_triangles_end(rc_scene *s, size_t count);
/* A triangle with vertex data: its corners a, b, c and the indices of their vertex data
 * (rc_scene_add_vertex). 0 or -1 (out of memory, or an index out of range). */
int rc_scene_add_triangle_vtx(rc_scene *s, rc_vec3 a, rc_vec3 b, rc_vec3 c, uint32_t material,
                              const uint32_t vtx[3]);
/* Host bytes of the scene's vertex data (for the memory report). */
size_t rc_scene_vertex_bytes(const rc_scene *s);
/* Make the primitives added from input index `first` up to now a mesh that instances place
 * (rc_scene_add_instance), drawn only through them. Returns its index, or -1 (out of memory,
 * or `first` past the primitives). */
long rc_scene_add_mesh(rc_scene *s, size_t first);
/* An instance of mesh `mesh` placed by the affine object-to-world transform xf (3 rows of 4,
 * row-major). 0; -1 out of memory; -2 a number not finite, or the transform singular (its
 * linear part's determinant below 1e-12 of the product of its rows' lengths); -3 no such mesh. */
int rc_scene_add_instance(rc_scene *s, uint32_t mesh, const double xf[12]);
/* Host bytes one instance takes, with its share of the top-level BVH and of its build. */
#define RC_SCENE_INSTANCE_BYTES (2 * sizeof(rc_instance) + RC_SCENE_PRIM_BYTES)
/* Build the BVH and the light table. 0, or -1 with err set. */
int rc_scene_finish(rc_scene *s, rc_error *err);
/* The i-th primitive added (NULL past the end); after rc_scene_finish, found through the BVH's
 * ids in O(n) (for tests and checks, not per-ray work). */
const rc_prim *rc_scene_prim_at(const rc_scene *s, size_t i);
/* After rc_scene_finish: build the light table again (its primitives and the environment's
 * share), the BVH as it is; for an environment attached (rc_scene_set_env) or replaced after
 * the load. 0, or -1 with err set. */
int rc_scene_relight(rc_scene *s, rc_error *err);
/* The RC_FEAT_* bits of what the scene uses (scene_view.h). */
uint32_t rc_scene_features(const rc_scene *s);
/* What per-ray code reads, for an image of width x height, pointing into the host arrays. */
rc_scene_view rc_scene_view_make(const rc_scene *s, uint32_t width, uint32_t height);

/* Load a scene file (scenes/FORMAT.md) and build its BVH. Errors are one line:
 * "file: field: what is wrong", "file:line:col: invalid JSON ..." or an OBJ file's
 * "mesh.obj:line: what is wrong". */
int rc_scene_load(const char *path, rc_scene *out, rc_error *err);
/* The same from JSON text; `name` is used in messages, `dir` resolves mesh paths. */
int rc_scene_parse(const char *name, const char *dir, const char *text, size_t len, rc_scene *out,
                   rc_error *err);

/* The memory a scene may take, unless the caller says otherwise (raycompact --max-memory). */
#define RC_DEFAULT_MAX_MEMORY_MIB 4096
/* Host bytes one primitive takes, with its share of the BVH and of the BVH's build (an upper
 * estimate: 48-byte record, 32-byte nodes, index and bound arrays of the build). */
#define RC_SCENE_PRIM_BYTES 192
/* rc_scene_load and rc_scene_parse (which use RC_DEFAULT_MAX_MEMORY_MIB) with a memory limit:
 * the file's text, the JSON tree it becomes (estimated in one pass before it is built) and the
 * primitives (RC_SCENE_PRIM_BYTES each) must fit max_mib MiB, or the load fails with a one-line
 * error naming the array that outgrew it. */
int rc_scene_load_max(const char *path, size_t max_mib, rc_scene *out, rc_error *err);
int rc_scene_parse_max(const char *name, const char *dir, const char *text, size_t len,
                       size_t max_mib, rc_scene *out, rc_error *err);

#ifdef __cplusplus
}
#endif
#endif /* RC_SCENE_H */
