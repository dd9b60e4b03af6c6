/* fuzz_scene.c: the scene file reader (rc_scene_parse), on the input as the file's text. Mesh
 * paths resolve against a directory that does not exist, so a scene cannot reach the shipped
 * meshes (their BVH builds would make each run slow); an absolute path still goes to the OBJ
 * loader, which must refuse anything but a regular file. */
#include "fuzz_check.h"
#include "scene/scene.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    rc_scene s;
    rc_error err;
    if (rc_scene_parse("fuzz.json", "/nonexistent-fuzz-dir", text, size, &s, &err) == 0) {
        for (uint32_t i = 0; i < s.bvh.num_prims; i++) /* every primitive, in leaf order */
            if (rc_prim_material(&s.bvh.prims[i]) >= s.num_materials) abort();
        rc_scene_free(&s);
    } else {
        fuzz_check_message("scene", err.msg);
    }
    free(text);
    return 0;
}
