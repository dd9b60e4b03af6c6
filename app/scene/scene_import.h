/* scene_import.h: model files (glTF 2.0, OBJ) as scenes: `--scene FILE.gltf|.glb|.obj`, and a
 * JSON scene's `"meshes": [{"file": ...}]`. Until the renderer's materials grow the glTF model
 * (core/bsdf.h), a file's materials map onto today's four (rc_import_material_map). */
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

/* A glTF material on the renderer's models, in this order: emission (emissive factor x
 * texture mean x strength, when above 0) -> emissive; transmission >= 0.5 -> dielectric of the
 * file's IOR, tinted by the base colour; metallic >= 0.5 -> metal of the base colour with fuzz
 * roughness^2 (the microfacet alpha); else Lambertian of the base colour. A texture counts by
 * its mean colour (sRGB decoded); normal, metallic-roughness and transmission textures, alpha
 * and the second UV set are not used yet. */
rc_material rc_import_material_map(const rc_import *im, const rc_import_material *g);

/* Where a JSON scene puts a model: a point and a normal through the mesh's placement. */
typedef struct rc_import_place {
    rc_vec3 (*point)(const void *ctx, rc_vec3 p);
    rc_vec3 (*normal)(const void *ctx, rc_vec3 n);
    const void *ctx;
} rc_import_place;

/* Read a model file into *im (rc_import_free releases it): glTF through gltf.c within max_mib;
 * OBJ through obj.c with its MTL files (mtl.c): one part per material its faces use, the MTL
 * materials mapped by the rules of scenes/FORMAT.md (through rc_import_material_map), a grey
 * Lambertian default for faces before any usemtl. 0, or -1 with err. */
int rc_import_read(const char *path, size_t max_mib, rc_import *im, rc_error *err);

/* Add the import's triangles (zero-area ones dropped, counted in s->num_degenerate) with their
 * vertex normals and uvs to s, placed by `place` (NULL: as they are), each of material index
 * `material`, or (material < 0) of its own material mapped and appended. Refused in one line
 * naming `name`, before anything is added, when its triangles and vertices would take more
 * than `budget` bytes. 0, or -1 with err. */
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
