/* fuzz_texture.c: the texture loader (rc_texture_from_memory: PNG or JPEG through the header
 * and structure checks, stb_image, then the mip pyramid), on an exact-size buffer; a loaded
 * texture's levels must fit its texel count and every level be sampled inside it. */
#include "core/texture.h"
#include "fuzz_check.h"
#include "scene/texture_load.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    rc_texture_image img;
    rc_error err;
    /* 16 MiB: a header that asks for more is refused before decoding */
    if (rc_texture_from_memory("fuzz.png", data, size, 1, 1, (size_t)16 << 20, &img, &err) != 0) {
        fuzz_check_message("texture", err.msg);
        return 0;
    }
    size_t end = 0;
    for (uint32_t l = 0; l < img.levels; l++) {
        size_t e = img.offset[l] + (size_t)img.width[l] * img.height[l];
        if (img.width[l] < 1 || img.height[l] < 1 || e > img.num_texels) abort();
        end = e;
    }
    if (end != img.num_texels) abort();
    rc_texture_table tt;
    rc_texture_table_init(&tt);
    if (rc_texture_table_add(&tt, &img, RC_WRAP_MIRRORED_REPEAT, RC_WRAP_REPEAT,
                             RC_FILTER_TRILINEAR, NULL, &err) == 0) {
        rc_texture_view v = rc_texture_table_view(&tt);
        for (int k = 0; k < 16; k++) {
            rc_rgba c = rc_tex_sample(&v, 0, 0.37f * (float)k - 2.0f, 1.0f - 0.29f * (float)k,
                                      0.5f * (float)k);
            if (!(c.r >= 0.0f && c.r <= 1.0f && c.a >= 0.0f && c.a <= 1.0f)) abort();
        }
    }
    rc_texture_table_free(&tt);
    rc_texture_image_free(&img);
    return 0;
}
