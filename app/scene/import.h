/* import.h: a scene read from another format (glTF 2.0, gltf.h), in memory and independent of
 * the renderer: triangle meshes already in world space, their materials, textures decoded to
 * RGBA8, and the file's camera if it has one. Turning it into an rc_scene (BVH, the renderer's
 * materials, textures on the device) is the caller's business.
 *
 * Every array is malloc'ed and owned by the rc_import; rc_import_free releases them all. */
#ifndef RC_IMPORT_H
#define RC_IMPORT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A texture as a material uses it: which texture, which set of texture coordinates, and the
 * KHR_texture_transform of that use (identity when the file gives none). The coordinates a
 * lookup uses are uv' = T * R * S * uv with T the offset, R the rotation (radians,
 * counter-clockwise in uv space, as the extension defines) and S the scale. */
typedef struct rc_import_texref {
    int32_t texture;   /* index into rc_import.textures, -1: no texture */
    uint32_t texcoord; /* 0: uv0, 1: uv1 (the transform's texCoord override applied) */
    float offset[2], rotation, scale[2];
} rc_import_texref;

/* glTF's alphaMode. BLEND has no order-independent meaning in a path tracer: the reader keeps
 * the mode and sets alpha_cutoff to 0.5, so a caller that does not blend treats it as MASK. */
enum { RC_IMPORT_ALPHA_OPAQUE = 0, RC_IMPORT_ALPHA_MASK = 1, RC_IMPORT_ALPHA_BLEND = 2 };

/* glTF's metallic-roughness material with the extensions the reader takes. Texture values
 * multiply the factors as glTF says (base colour in sRGB, metallic in B, roughness in G). */
typedef struct rc_import_material {
    float base_color[4]; /* linear RGBA factor */
    rc_import_texref base_color_tex;
    float metallic, roughness;
    rc_import_texref metallic_roughness_tex;
    rc_import_texref normal_tex;
    float normal_scale;
    float emissive[3];       /* linear RGB factor */
    float emissive_strength; /* KHR_materials_emissive_strength, 1 without it */
    rc_import_texref emissive_tex;
    uint32_t alpha_mode; /* RC_IMPORT_ALPHA_* */
    float alpha_cutoff;  /* MASK: the file's (default 0.5); BLEND: 0.5; OPAQUE: 0 */
    int double_sided;
    float transmission; /* KHR_materials_transmission, 0 without it */
    rc_import_texref transmission_tex;
    float ior;      /* KHR_materials_ior, 1.5 without it */
    int is_default; /* 1: the material of primitives that name none */
} rc_import_material;

/* A sampler's settings with glTF's (OpenGL's) values: filters 9728 NEAREST, 9729 LINEAR,
 * 9984..9987 the mipmap ones, 0 unset; wraps 33071 CLAMP_TO_EDGE, 33648 MIRRORED_REPEAT,
 * 10497 REPEAT (the default). */
typedef struct rc_import_sampler {
    uint32_t mag_filter, min_filter, wrap_s, wrap_t;
} rc_import_sampler;

typedef struct rc_import_texture {
    int32_t image; /* index into rc_import.images, -1: none */
    rc_import_sampler sampler;
} rc_import_texture;

/* An image decoded to 8-bit RGBA, rows top to bottom. */
typedef struct rc_import_image {
    uint32_t width, height;
    uint8_t *rgba; /* 4 * width * height bytes */
} rc_import_image;

/* One part of a mesh (a glTF primitive) placed by one instance, in world space: an indexed
 * triangle list (strips and fans are unrolled; a mirroring transform has its winding flipped
 * back, so counter-clockwise stays the front). */
typedef struct rc_import_part {
    float *positions;  /* 3 per vertex */
    float *normals;    /* 3 per vertex, unit length (or zero where the file's were); NULL: none */
    float *tangents;   /* 4 per vertex: xyz unit, w = +-1 handedness; NULL: none */
    float *uv0;        /* 2 per vertex, zero when the primitive has no TEXCOORD_0 */
    float *uv1;        /* 2 per vertex (TEXCOORD_1); NULL: none */
    float *colors;     /* 4 per vertex, linear RGBA (COLOR_0, alpha 1 for RGB); NULL: none */
    uint32_t *indices; /* 3 per triangle, each < num_vertices */
    size_t num_vertices, num_triangles;
    int has_uv0;              /* whether uv0 came from the file */
    uint32_t material;        /* index into rc_import.materials, always valid */
    uint32_t mesh, primitive; /* the file's meshes[mesh].primitives[primitive] */
    uint32_t instance;        /* index into rc_import.instances */
} rc_import_part;

/* One use of a mesh by a node: the parts above hold a copy per use, so a two-level BVH can
 * instead build the mesh once and place it by `world`. */
typedef struct rc_import_instance {
    uint32_t mesh, node;
    float world[16]; /* the node's world transform, column-major as glTF writes matrices */
    size_t first_part, num_parts; /* its parts: parts[first_part .. first_part + num_parts) */
} rc_import_instance;

/* A camera as the renderer describes one (look_from, look_at, up, vertical field of view). */
typedef struct rc_import_camera {
    int present;           /* 0: the file has none (rc_import_frame makes one) */
    uint32_t node, camera; /* the file's node and camera */
    float look_from[3], look_at[3], up[3];
    float vfov;   /* degrees */
    float aspect; /* width / height, 0 when the file does not say */
    float znear;
} rc_import_camera;

typedef struct rc_import {
    rc_import_part *parts;
    size_t num_parts;
    rc_import_instance *instances;
    size_t num_instances;
    rc_import_material *materials; /* the file's, then a default one when a part needs it */
    size_t num_materials;
    rc_import_texture *textures;
    size_t num_textures;
    rc_import_image *images;
    size_t num_images;
    rc_import_sampler *samplers;
    size_t num_samplers;
    rc_import_camera camera;
    size_t num_vertices, num_triangles; /* over all parts */
    float bounds_min[3], bounds_max[3]; /* of every part's positions; zero when there are none */
    size_t bytes;                       /* the memory the arrays above take */
    /* What was read but left out (each also said once by the notice callback, gltf.h). */
    size_t num_skipped_primitives; /* points and lines */
    size_t num_skinned;            /* nodes with a skin, read in the bind pose */
    size_t num_morphed;            /* primitives with morph targets, read without them */
} rc_import;

void rc_import_free(rc_import *im);
/* A camera that frames the bounds: it looks down -z (glTF's view direction) at their centre
 * from the distance at which the bounding sphere fits both the vertical field of view `vfov`
 * (degrees) and the horizontal one `aspect` gives. Sets *cam (present = 1). */
void rc_import_frame(const rc_import *im, float vfov, float aspect, rc_import_camera *cam);

#ifdef __cplusplus
}
#endif
#endif /* RC_IMPORT_H */
