/* fuzz_envmap.c: the environment loader (rc_env_from_memory: a Radiance HDR header, every
 * scanline walked, stb_image, then the sampling tables), on an exact-size buffer; a loaded
 * map's CDFs must end at 1 and its samples return finite directions and densities. */
#include "core/envmap.h"
#include "fuzz_check.h"
#include "scene/env_load.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    rc_env_map e;
    rc_error err;
    if (rc_env_from_memory("fuzz.hdr", data, size, (size_t)16 << 20, &e, &err) != 0) {
        fuzz_check_message("envmap", err.msg);
        return 0;
    }
    if (e.marg_cdf[e.height] != 1.0f) abort();
    for (uint32_t j = 0; j < e.height; j++)
        if (e.cond_cdf[(size_t)j * (e.width + 1) + e.width] != 1.0f) abort();
    rc_env_view v = rc_env_view_make(&e, 15.0f, 1.0f);
    for (int k = 0; k < 16; k++) {
        rc_vec3 d;
        float pdf;
        rc_vec3 L = rc_env_sample(&v, (float)k / 16.0f, (float)((k * 7) % 16) / 16.0f, &d, &pdf);
        if (!isfinite(pdf) || pdf < 0.0f || !isfinite(d.x) || !isfinite(L.x)) abort();
        if (!isfinite(rc_env_pdf(&v, d))) abort();
    }
    rc_env_free(&e);
    return 0;
}
