/* gltf.h: a glTF 2.0 reader (.gltf with its buffers and images, and .glb) into an rc_import
 * (import.h). Every field is checked before it is used: a file that breaks the format's rules
 * is refused with one line, "file: element: what is wrong", e.g.
 *   box.gltf: accessors[3]: byteOffset 64 + 24 x 12 bytes runs past bufferViews[1] (200 bytes)
 * and no input makes it read out of bounds, allocate past its memory limit, or block.
 * What is read and what is refused is listed in scenes/FORMAT.md ("glTF 2.0"). */
#ifndef RC_GLTF_H
#define RC_GLTF_H

#include "import.h"
#include "rc_error.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Larger scenes are refused (the renderer packs primitive indices in 32 bits). */
#define RC_GLTF_MAX_TRIANGLES (1u << 28)
/* Deeper node hierarchies are refused. */
#define RC_GLTF_MAX_DEPTH 256
/* Larger images are refused (width and height each). */
#define RC_GLTF_MAX_IMAGE_SIZE 16384

typedef struct rc_gltf_options {
    /* The memory the read may take, in MiB (0: RC_DEFAULT_MAX_MEMORY_MIB of scene.h): the
     * file, its JSON tree (estimated before it is built), buffers read or decoded, the result's
     * arrays (estimated before any is allocated) and the decoded images. */
    size_t max_mib;
    /* Called with one line for each thing read but left out (points and lines, skins, morph
     * targets), at most 16 times a file; NULL: none. The counters of rc_import count them all. */
    void (*notice)(void *user, const char *line);
    void *user;
} rc_gltf_options;

/* Read a .gltf or .glb file (by its content: a .glb starts with "glTF"); relative URIs are
 * resolved in the file's directory. opt may be NULL. 0, or -1 with err set and *out empty. */
int rc_gltf_load(const char *path, const rc_gltf_options *opt, rc_import *out, rc_error *err);
/* The same from memory: `name` starts messages, `dir` resolves relative URIs (NULL: any
 * external file is refused). The data is only read during the call. */
int rc_gltf_parse(const char *name, const char *dir, const void *data, size_t len,
                  const rc_gltf_options *opt, rc_import *out, rc_error *err);

#ifdef __cplusplus
}
#endif
#endif /* RC_GLTF_H */
