/* gltf_images.c: the glTF reader's images, from a buffer view, a data: URI or a file, decoded
 * to RGBA8 with stb_image (gltf_internal.h). stb_image is compiled into this file alone, static,
 * PNG and JPEG only; a build without it (no RC_HAVE_STB) refuses files with images. */
#include "gltf_internal.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef RC_HAVE_STB
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_NO_STDIO
#define STBI_NO_GIF
#define STBI_FAILURE_USERMSG
#define STBI_MAX_DIMENSIONS RC_GLTF_MAX_IMAGE_SIZE
/* static: the declarations of the functions this file does not call stay unused */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include <stb_image.h>
#endif

/* ---- images ---- */

#ifdef RC_HAVE_STB
static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* stb_image 2.27 trusts a PNG chunk's length (it allocates it before reading) and mishandles
 * an empty IDAT: walk the chunks first; 0 when every chunk lies in the data and no IDAT is
 * empty. */
static int png_chunks_ok(const uint8_t *d, size_t len) {
    size_t at = 8;
    for (;;) {
        if (at + 12 > len) return 0;
        uint32_t n = be32(d + at);
        if (n > len - at - 12) return 0;
        if (!memcmp(d + at + 4, "IEND", 4)) return 1;
        if (n == 0 && !memcmp(d + at + 4, "IDAT", 4)) return 0;
        at += 12 + (size_t)n;
    }
}
#endif

static int decode_image(gctx *c, const char *p, const uint8_t *data, size_t len,
                        rc_import_image *img) {
#ifdef RC_HAVE_STB
    static const uint8_t png_sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    int w, h, comp;
    if (len < 8 || len > (size_t)INT32_MAX) return gltf_fail(c, p, "not a PNG or JPEG image");
    int is_png = memcmp(data, png_sig, 8) == 0;
    int is_jpeg = data[0] == 0xFF && data[1] == 0xD8;
    if (!is_png && !is_jpeg) return gltf_fail(c, p, "not a PNG or JPEG image");
    if (is_png && !png_chunks_ok(data, len))
        return gltf_fail(c, p, "PNG chunks run past the data (or an empty IDAT)");
    if (!stbi_info_from_memory(data, (int)len, &w, &h, &comp))
        return gltf_fail(c, p, "cannot decode the image: %s", stbi_failure_reason());
    if (w <= 0 || h <= 0 || w > RC_GLTF_MAX_IMAGE_SIZE || h > RC_GLTF_MAX_IMAGE_SIZE)
        return gltf_fail(c, p, "image of %d x %d pixels (at most %d each way)", w, h,
                         RC_GLTF_MAX_IMAGE_SIZE);
    size_t bytes = (size_t)w * (size_t)h * 4;
    /* the decoder's own buffers take about as much again */
    if (gltf_charge(c, 2 * bytes, p, "the decoded image") != 0) return -1;
    int dw, dh;
    uint8_t *px = stbi_load_from_memory(data, (int)len, &dw, &dh, &comp, 4);
    c->used -= bytes;
    if (!px) return gltf_fail(c, p, "cannot decode the image: %s", stbi_failure_reason());
    if (dw != w || dh != h) {
        stbi_image_free(px);
        return gltf_fail(c, p, "the image's size changed while decoding");
    }
    img->rgba = malloc(bytes);
    if (!img->rgba) {
        stbi_image_free(px);
        return gltf_fail(c, p, "out of memory");
    }
    memcpy(img->rgba, px, bytes);
    stbi_image_free(px);
    img->width = (uint32_t)w;
    img->height = (uint32_t)h;
    c->out->bytes += bytes;
    return 0;
#else
    (void)data;
    (void)len;
    (void)img;
    return gltf_fail(c, p,
                     "this build reads no images (it was built without stb_image, libstb-dev)");
#endif
}

int gltf_read_images(gctx *c) {
    static const char *const types[] = {"image/png", "image/jpeg", NULL};
    rc_import *im = c->out;
    if (c->n_imgs && !(im->images = gltf_alloc_out(im, (size_t)c->n_imgs, sizeof *im->images)))
        return gltf_fail(c, "images", "out of memory");
    im->num_images = (size_t)c->n_imgs;
    for (int i = 0; i < c->n_imgs; i++) {
        const cJSON *o = c->a_imgs[i];
        char p[64], fp[96];
        gltf_jindex(p, sizeof p, "images", i);
        const char *uri, *mime;
        int32_t view;
        if (gltf_jstring(c, o, p, "uri", &uri) != 0 ||
            gltf_jstring(c, o, p, "mimeType", &mime) != 0 ||
            gltf_jref(c, o, p, "bufferView", 0, c->n_views, "bufferViews", &view) != 0)
            return -1;
        if ((uri != NULL) == (view >= 0))
            return gltf_fail(c, p, "needs either a uri or a bufferView");
        if (mime && strcmp(mime, "image/png") != 0 && strcmp(mime, "image/jpeg") != 0) {
            char shown[40];
            return gltf_fail(c, gltf_jpath(fp, sizeof fp, p, "mimeType"),
                             "'%s' is not image/png or image/jpeg",
                             echo_escape(shown, sizeof shown, mime));
        }
        uint8_t *owned = NULL;
        const uint8_t *data;
        size_t len = 0;
        if (view >= 0) {
            if (!mime) return gltf_fail(c, p, "a bufferView image needs a mimeType");
            data = gltf_view_data(c, (uint32_t)view);
            len = c->views[view].length;
        } else if (strncmp(uri, "data:", 5) == 0) {
            if (gltf_data_uri(c, p, uri, types, &owned, &len, NULL) != 0) return -1;
            data = owned;
        } else {
            if (gltf_read_uri_file(c, p, uri, &owned, &len) != 0) return -1;
            data = owned;
        }
        int rc = decode_image(c, p, data, len, &im->images[i]);
        if (owned) {
            free(owned);
            c->used -= len;
        }
        if (rc != 0) return -1;
    }
    return 0;
}
