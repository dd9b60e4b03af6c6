/* fuzz_mtl.c: the MTL material reader (rc_mtl_parse), on the input as the file's text; what
 * it accepts has its values in their ranges and its names unique. */
#include "fuzz_check.h"
#include "scene/mtl.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static int in(float v, float lo, float hi) {
    return isfinite(v) && v >= lo && v <= hi;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* The reader takes a length and must not read past it: an exact-size copy, unterminated. */
    char *text = malloc(size ? size : 1);
    if (!text) return 0;
    if (size) memcpy(text, data, size);
    rc_mtl m;
    memset(&m, 0, sizeof m);
    rc_error err;
    if (rc_mtl_parse("fuzz.mtl", "dir", text, size, &m, &err) == 0) {
        for (size_t i = 0; i < m.count; i++) {
            const rc_mtl_material *a = &m.materials[i];
            if (!a->name[0] || rc_mtl_find(&m, a->name, strlen(a->name)) != (long)i) abort();
            for (int k = 0; k < 3; k++)
                if (!in(a->kd[k], 0, 1) || !in(a->ks[k], 0, 1) || !in(a->ke[k], 0, 1e6)) abort();
            if (!in(a->ns, 0, 1e6) || !in(a->ni, 0.01f, 10) || !in(a->d, 0, 1) || a->illum < 0 ||
                a->illum > 10)
                abort();
            if (a->map_kd && (strncmp(a->map_kd, "dir/", 4) != 0 || strstr(a->map_kd, "/../")))
                abort();
        }
    } else {
        fuzz_check_message("mtl", err.msg);
        if (m.count != 0 || m.materials) abort(); /* an error leaves nothing behind */
    }
    rc_mtl_free(&m);
    free(text);
    return 0;
}
