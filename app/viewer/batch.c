/* batch.c: rectangles and stb_easy_font text as triangles; one buffer upload and one draw. */
#include "batch.h"

#include "gl_util.h"
#include "grow.h"
#include "rc_shaders.h"

#include <stb_easy_font.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest line drawn at once; stb_easy_font needs about 270 bytes of quads per character. */
#define RC_TEXT_MAX 240

int rc_batch_init(rc_batch *b, rc_error *err) {
    memset(b, 0, sizeof *b);
    b->scale = 1.0f;
    b->prog = rc_gl_program("overlay", rc_shader_overlay_vert, rc_shader_overlay_frag, err);
    if (!b->prog) return -1;
    b->u_viewport = glGetUniformLocation(b->prog, "viewport");
    glGenVertexArrays(1, &b->vao);
    glGenBuffers(1, &b->vbo);
    glBindVertexArray(b->vao);
    glBindBuffer(GL_ARRAY_BUFFER, b->vbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(rc_vertex2d), (void *)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(rc_vertex2d),
                          (void *)offsetof(rc_vertex2d, c));
    glBindVertexArray(0);
    return 0;
}

void rc_batch_free(rc_batch *b) {
    if (b->vbo) glDeleteBuffers(1, &b->vbo);
    if (b->vao) glDeleteVertexArrays(1, &b->vao);
    if (b->prog) glDeleteProgram(b->prog);
    free(b->v);
    memset(b, 0, sizeof *b);
}

void rc_batch_clear(rc_batch *b) {
    b->n = 0;
}

/* Two triangles; when out of memory the overlay just loses the shape. */
static void quad(rc_batch *b, float x0, float y0, float x1, float y1, rc_rgba8 c) {
    if (rc_grow((void **)&b->v, &b->cap, b->n + 6, sizeof *b->v) != 0) return;
    rc_vertex2d *v = b->v + b->n;
    const float xs[6] = {x0, x1, x1, x0, x1, x0}, ys[6] = {y0, y0, y1, y0, y1, y1};
    for (int i = 0; i < 6; i++) v[i] = (rc_vertex2d){xs[i], ys[i], c};
    b->n += 6;
}

void rc_batch_rect(rc_batch *b, float x, float y, float w, float h, rc_rgba8 c) {
    if (w > 0.0f && h > 0.0f) quad(b, x, y, x + w, y + h, c);
}

/* The font is ASCII: "§" (U+00A7) reads "Sec. ", other non-ASCII characters "?". */
static void to_ascii(const char *s, char *out, size_t cap) {
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && n + 6 < cap; p++) {
        if (*p < 0x80) {
            out[n++] = *p >= 32 && *p < 127 ? (char)*p : ' ';
        } else if (p[0] == 0xc2 && p[1] == 0xa7) {
            memcpy(out + n, "Sec. ", 5);
            n += 5;
            p++;
        } else if ((*p & 0xc0) != 0x80) {
            out[n++] = '?';
        }
    }
    out[n] = '\0';
}

float rc_batch_text_width(const rc_batch *b, const char *s) {
    char line[RC_TEXT_MAX];
    to_ascii(s, line, sizeof line);
    return (float)stb_easy_font_width(line) * b->scale;
}

/* stb_easy_font's quads (4 vertices of x, y, z, rgba) scaled and placed at (x, y). */
static void glyphs(rc_batch *b, float x, float y, rc_rgba8 c, char *line) {
    static char buf[RC_TEXT_MAX * 300];
    int quads = stb_easy_font_print(0.0f, 0.0f, line, NULL, buf, sizeof buf);
    const float *q = (const float *)buf; /* 4 floats per vertex: x, y, z, packed colour */
    for (int i = 0; i < quads; i++, q += 16) {
        float s = b->scale;
        quad(b, x + q[0] * s, y + q[1] * s, x + q[8] * s, y + q[9] * s, c);
    }
}

float rc_batch_text(rc_batch *b, float x, float y, rc_rgba8 c, const char *s) {
    char line[RC_TEXT_MAX];
    to_ascii(s, line, sizeof line);
    glyphs(b, x + b->scale, y + b->scale, (rc_rgba8){0, 0, 0, (uint8_t)(c.a * 3 / 4)}, line);
    glyphs(b, x, y, c, line);
    return (float)stb_easy_font_width(line) * b->scale;
}

float rc_batch_textf(rc_batch *b, float x, float y, rc_rgba8 c, const char *fmt, ...) {
    char s[RC_TEXT_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s, sizeof s, fmt, ap);
    va_end(ap);
    return rc_batch_text(b, x, y, c, s);
}

void rc_batch_draw(rc_batch *b, int w, int h) {
    if (b->n == 0) return;
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(b->prog);
    glUniform2f(b->u_viewport, (float)w, (float)h);
    glBindVertexArray(b->vao);
    glBindBuffer(GL_ARRAY_BUFFER, b->vbo);
    /* Orphan the old storage: the driver need not wait for last frame's draw. */
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(b->n * sizeof *b->v), NULL, GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(b->n * sizeof *b->v), b->v);
    glDrawArrays(GL_TRIANGLES, 0, (GLsizei)b->n);
    glBindVertexArray(0);
    glDisable(GL_BLEND);
}
