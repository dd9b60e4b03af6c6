/* fuzz_obj.c: the OBJ mesh reader (rc_obj_parse, and rc_obj_parse_mtl without a folder: usemtl
 * checked, mtllib refused), on the input as the file's text. */
#include "fuzz_check.h"
#include "scene/obj.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* The reader takes a length and must not read past it: an exact-size copy, unterminated. */
    char *text = malloc(size ? size : 1);
    if (!text) return 0;
    if (size) memcpy(text, data, size);
    rc_mesh m;
    rc_error err;
    if (rc_obj_parse("fuzz.obj", text, size, &m, &err) == 0) {
        for (size_t i = 0; i < 3 * m.num_triangles; i++)
            if (m.tri[i] >= m.num_vertices) abort();
        rc_mesh_free(&m);
    } else {
        fuzz_check_message("obj", err.msg);
    }
    if (rc_obj_parse_mtl("fuzz.obj", NULL, size, text, size, &m, &err) == 0) {
        if (m.tri_m) abort(); /* no material can be named without an mtllib */
        rc_mesh_free(&m);
    } else {
        fuzz_check_message("obj", err.msg);
    }
    free(text);
    return 0;
}
