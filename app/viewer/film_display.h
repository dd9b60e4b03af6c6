/* film_display.h: the rendered image on screen. The film goes into a float texture by one of three
 * paths: the CPU backend uploads its mean directly; the CUDA backend copies its sums into a
 * GL pixel buffer mapped through CUDA-GL interop (registered once, mapped per frame, written
 * with write-discard); when interop cannot be had (GL on another GPU or in software, a
 * remote display) it falls back to a device-to-host copy and glTexSubImage2D. */
#ifndef RC_VIEW_FILM_H
#define RC_VIEW_FILM_H

#include "../wavefront/wavefront.h"

#include <epoxy/gl.h>

typedef enum rc_film_path {
    RC_FILM_HOST = 0, /* rc_renderer_image, then glTexSubImage2D */
    RC_FILM_INTEROP   /* device copy into a registered pixel buffer, then a GPU-side upload */
} rc_film_path;

typedef struct rc_film {
    uint32_t w, h;
    rc_film_path path;
    GLuint prog, vao, tex, mask_tex, pbo;
    GLint u_scale, u_show_mask, u_film, u_mask, u_tonemap;
    void *resource;      /* the pixel buffer's cudaGraphicsResource (interop) */
    float *rgb;          /* host copy of the image (host path) */
    uint8_t *mask;       /* host copy of the alive-ray mask */
    uint32_t mask_alive; /* pixels set in it */
    float scale;         /* what turns the texture into the mean: 1 / frames for sums, else 1 */
} rc_film;

/* Textures for a w x h image; on the CUDA backend, with `interop`, also the pixel buffer and
 * its interop registration (a failure there prints one notice and selects the host path). */
int rc_film_init(rc_film *f, uint32_t w, uint32_t h, rc_backend backend, int interop,
                 rc_error *err);
void rc_film_free(rc_film *f);
/* Bring the renderer's film (and, with want_mask, its alive-ray mask) into the textures. */
int rc_film_update(rc_film *f, rc_renderer *r, int want_mask, rc_error *err);
/* Draw into the viewport rectangle (x, y, w, h), in GL's window coordinates. */
void rc_film_draw(const rc_film *f, float exposure, int tonemap, int show_mask, int x, int y, int w,
                  int h);
const char *rc_film_path_name(rc_film_path p);

#endif /* RC_VIEW_FILM_H */
