/* scene_import.h: model files (glTF 2.0, OBJ) as scenes: `--scene FILE.gltf|.glb|.obj`, and a
 * JSON scene's `"meshes": [{"file": ...}]`: their triangles with vertex normals, uvs (both
 * sets) and colours, their materials with their textures (rc_import_material_map). */
#ifndef RC_SCENE_IMPORT_H
#define RC_SCENE_IMPORT_H

#include "import.h"
#include "scene.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { RC_MODEL_NONE = 0, RC_MODEL_GLTF = 1, RC_MODEL_OBJ = 2 };
/* What a path names by its extension (case-insensitive): .gltf and .glb, .obj, or none. */
int rc_scene_model_kind(const char *path);

/* Which rules map an import's materials: glTF's, or those of the MTL conversion (an OBJ's). */
enum { RC_IMPORT_RULES_GLTF = 0, RC_IMPORT_RULES_MTL = 1 };

/* A material of an import as the renderer's, its texture slots left empty (rc_scene_add_import
 * fills them). glTF rules: always RC_MAT_PBR: the base colour factor (its alpha in `alpha`),
 * metallic, roughness, ior, transmission, emission = emissive factor x emissive_strength,
 * normal_scale, alpha_cutoff (MASK: the file's; BLEND: 0.5, read as MASK; OPAQUE: 0), the
 * RC_MATF_UV1_* flag of each texture that reads TEXCOORD_1, and RC_MATF_VERTEX_COLOR when
 * vertex_colors (some part of the material has COLOR_0). MTL rules (scenes/FORMAT.md): the
 * same, then transmission >= 0.5 makes a dielectric (RC_MAT_DIELECTRIC when roughness is 0,
 * else RC_MAT_ROUGH_DIELECTRIC) of the base colour's tint and the ior; emission with a black
 * base colour, no base texture and metallic 0 an RC_MAT_EMISSIVE; metallic 0 with roughness 1
 * and no metallic-roughness texture an RC_MAT_LAMBERTIAN. */
rc_material rc_import_material_map(const rc_import_material *g, int rules, int vertex_colors);

/* Where a JSON scene puts a model: a point, a normal and a direction (a tangent) through the
 * mesh's placement. */
typedef struct rc_import_place {
    rc_vec3 (*point)(const void *ctx, rc_vec3 p);
    rc_vec3 (*normal)(const void *ctx, rc_vec3 n);
    rc_vec3 (*dir)(const void *ctx, rc_vec3 d);
    const void *ctx;
} rc_import_place;

/* Read a model file into *im (rc_import_free releases it): glTF through gltf.c within max_mib;
 * OBJ through obj.c with its MTL files (mtl.c): one part per material its faces use, the MTL
 * materials mapped by the rules of scenes/FORMAT.md (through rc_import_material_map), a grey
 * Lambertian default for faces before any usemtl. 0, or -1 with err. */
int rc_import_read(const char *path, size_t max_mib, rc_import *im, rc_error *err);
/* Host bytes a triangle of a model takes in the scene: the primitive with its BVH share, its
 * vertex indices, its entries in both orders of the index; and a vertex's normal and uv. */
#define RC_IMPORT_TRI_BYTES    (RC_SCENE_PRIM_BYTES + 5 * sizeof(uint32_t))
#define RC_IMPORT_VERTEX_BYTES (5 * sizeof(float))

/* rc_import_read's OBJ reader (obj_import.c): the text of the OBJ and its MTL files takes at
 * most max_bytes, and so do the map_Kd images; `limit` bounds what the import holds. */
int rc_obj_import(const char *path, size_t max_bytes, size_t limit, rc_import *im, rc_error *err);

/* Add the import's triangles (zero-area ones dropped, counted in s->num_degenerate) with their
 * vertex normals, uvs (TEXCOORD_0 and _1) and colours to s, placed by `place` (NULL: as they
 * are), each of material index `material`, or (material < 0) of its own material mapped and
 * appended: by the MTL rules when `name` ends in .obj, else by glTF's. Each texture a material
 * uses becomes one entry of s->textures (the sampler's wraps; trilinear for a mipmap or unset
 * minification filter, nearest when both filters are NEAREST, else bilinear; the use's
 * KHR_texture_transform; mip levels made), base colour and emissive textures decoded as sRGB,
 * the others as linear; an image used twice with the same decoding is stored once. Refused in
 * one line naming `name`, before anything is added, when its triangles and vertices, then
 * with its textures' texels, would take more than `budget` bytes
 * ("m.gltf: images[3]: 4096x4096 texture needs 85 MiB, over the 40 MiB left of the memory
 * limit (--max-memory MIB raises it)"). 0, or -1 with err. */
int rc_scene_add_import(rc_scene *s, const rc_import *im, const rc_import_place *place,
                        long material, size_t budget, const char *name, rc_error *err);

/* A model file as a whole scene: its triangles and materials, its camera (or one that frames
 * its bounding sphere at 40 degrees, from above, right and in front), the default sky and
 * render settings; the BVH built. 0, or -1 with err set and *out empty. */
int rc_scene_load_model(const char *path, size_t max_mib, rc_scene *out, rc_error *err);

#ifdef __cplusplus
}
#endif
#endif /* RC_SCENE_IMPORT_H */
