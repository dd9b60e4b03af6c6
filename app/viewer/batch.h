/* batch.h: the overlay's geometry: coloured rectangles and text (stb_easy_font) gathered as
 * one list of triangles in window pixels (origin top-left, y down) and drawn with one call
 * through shaders/overlay.vert and overlay.frag. */
#ifndef RC_VIEW_BATCH_H
#define RC_VIEW_BATCH_H

#include "echo.h"
#include "rc_error.h"

#include <epoxy/gl.h>
#include <stddef.h>
#include <stdint.h>

typedef struct rc_rgba8 {
    uint8_t r, g, b, a; /* sRGB, straight alpha */
} rc_rgba8;

typedef struct rc_vertex2d {
    float x, y;
    rc_rgba8 c;
} rc_vertex2d;

typedef struct rc_batch {
    rc_vertex2d *v;
    size_t n, cap;
    float scale; /* text size: one font unit is `scale` pixels (1 up to 720 lines, 2 at 1080) */
    GLuint prog, vao, vbo;
    GLint u_viewport;
} rc_batch;

/* Font units: stb_easy_font's glyphs are 7 units tall on a 12-unit line. */
#define RC_FONT_LINE 12.0f

int rc_batch_init(rc_batch *b, rc_error *err);
void rc_batch_free(rc_batch *b);
void rc_batch_clear(rc_batch *b);
void rc_batch_rect(rc_batch *b, float x, float y, float w, float h, rc_rgba8 c);
/* Text with its top-left corner at (x, y), with a one-unit shadow; returns its width in
 * pixels. Non-ASCII characters are replaced ("§" becomes "Sec. "). */
float rc_batch_text(rc_batch *b, float x, float y, rc_rgba8 c, const char *s);
float rc_batch_textf(rc_batch *b, float x, float y, rc_rgba8 c, const char *fmt, ...)
    ECHO_PRINTF(5, 6);
/* Width in pixels of one line of text at the batch's scale. */
float rc_batch_text_width(const rc_batch *b, const char *s);
/* Draw everything gathered (blended), over a window of w x h pixels. */
void rc_batch_draw(rc_batch *b, int w, int h);

#endif /* RC_VIEW_BATCH_H */
