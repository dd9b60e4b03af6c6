/* film_display.c: the film's textures, the three ways frames reach them, and the display quad. */
#include "film_display.h"

#include "gl_util.h"
#include "interop.h"
#include "rc_shaders.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *rc_film_path_name(rc_film_path p) {
    return p == RC_FILM_INTEROP ? "CUDA-GL interop" : "host copy";
}

static GLuint make_texture(GLint internal, GLenum format, GLenum type, uint32_t w, uint32_t h,
                           GLint filter) {
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexImage2D(GL_TEXTURE_2D, 0, internal, (GLsizei)w, (GLsizei)h, 0, format, type, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    return t;
}

/* The CUDA backend's pixel buffer; without interop it is not needed and is deleted again. */
static void setup_interop(rc_film *f) {
    size_t bytes = (size_t)f->w * f->h * 3 * sizeof(float);
    glGenBuffers(1, &f->pbo);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, f->pbo);
    glBufferData(GL_PIXEL_UNPACK_BUFFER, (GLsizeiptr)bytes, NULL, GL_STREAM_DRAW);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    rc_error why;
    if (rc_interop_register(f->pbo, &f->resource, &why) == 0) {
        f->path = RC_FILM_INTEROP;
        return;
    }
    fprintf(stderr, "raycompact view: no CUDA-GL interop (%s): frames go through host memory\n",
            why.msg);
    glDeleteBuffers(1, &f->pbo);
    f->pbo = 0;
}

int rc_film_init(rc_film *f, uint32_t w, uint32_t h, rc_backend backend, int interop,
                 rc_error *err) {
    memset(f, 0, sizeof *f);
    f->w = w;
    f->h = h;
    f->scale = 1.0f;
    f->prog = rc_gl_program("display", rc_shader_display_vert, rc_shader_display_frag, err);
    if (!f->prog) return -1;
    f->u_scale = glGetUniformLocation(f->prog, "scale");
    f->u_show_mask = glGetUniformLocation(f->prog, "show_mask");
    f->u_tonemap = glGetUniformLocation(f->prog, "tonemap");
    f->u_film = glGetUniformLocation(f->prog, "film");
    f->u_mask = glGetUniformLocation(f->prog, "mask");
    glGenVertexArrays(1, &f->vao);
    f->tex = make_texture(GL_RGB32F, GL_RGB, GL_FLOAT, w, h, GL_LINEAR);
    f->mask_tex = make_texture(GL_R8, GL_RED, GL_UNSIGNED_BYTE, w, h, GL_NEAREST);
    size_t n = (size_t)w * h;
    f->mask = calloc(n, 1);
    if (!f->mask) return rc_fail(err, "out of memory for a %ux%u image", w, h);
    if (backend == RC_BACKEND_CUDA && interop) setup_interop(f);
    if (f->path == RC_FILM_HOST && !(f->rgb = malloc(n * 3 * sizeof *f->rgb)))
        return rc_fail(err, "out of memory for a %ux%u image", w, h);
    return 0;
}

void rc_film_free(rc_film *f) {
    rc_interop_unregister(f->resource);
    if (f->pbo) glDeleteBuffers(1, &f->pbo);
    GLuint tex[2] = {f->tex, f->mask_tex};
    glDeleteTextures(2, tex);
    if (f->vao) glDeleteVertexArrays(1, &f->vao);
    if (f->prog) glDeleteProgram(f->prog);
    free(f->rgb);
    free(f->mask);
    memset(f, 0, sizeof *f);
}

static void upload(GLuint tex, uint32_t w, uint32_t h, GLenum format, GLenum type,
                   const void *src) {
    glBindTexture(GL_TEXTURE_2D, tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, (GLsizei)w, (GLsizei)h, format, type, src);
}

static int update_mask(rc_film *f, rc_renderer *r, rc_error *err) {
    if (rc_renderer_mask(r, f->mask, err) != 0) return -1;
    uint32_t alive = 0;
    for (size_t i = 0, n = (size_t)f->w * f->h; i < n; i++) alive += f->mask[i];
    f->mask_alive = alive;
    upload(f->mask_tex, f->w, f->h, GL_RED, GL_UNSIGNED_BYTE, f->mask);
    return 0;
}

int rc_film_update(rc_film *f, rc_renderer *r, int want_mask, rc_error *err) {
    uint32_t frames = rc_renderer_frames(r);
    if (f->path == RC_FILM_INTEROP) {
        if (rc_interop_copy(f->resource, r, err) != 0) return -1;
        /* The texture reads the pixel buffer on the GPU: no pixels cross to the host. */
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, f->pbo);
        upload(f->tex, f->w, f->h, GL_RGB, GL_FLOAT, NULL);
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
        f->scale = frames ? 1.0f / (float)frames : 0.0f;
    } else {
        if (rc_renderer_image(r, f->rgb, err) != 0) return -1;
        upload(f->tex, f->w, f->h, GL_RGB, GL_FLOAT, f->rgb);
        f->scale = 1.0f;
    }
    return want_mask ? update_mask(f, r, err) : 0;
}

void rc_film_draw(const rc_film *f, float exposure, int tonemap, int show_mask, int x, int y, int w,
                  int h) {
    glViewport(x, y, w, h);
    glUseProgram(f->prog);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, f->tex);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, f->mask_tex);
    glActiveTexture(GL_TEXTURE0);
    glUniform1i(f->u_film, 0);
    glUniform1i(f->u_mask, 1);
    glUniform1f(f->u_scale, f->scale * exp2f(exposure));
    glUniform1i(f->u_show_mask, show_mask);
    glUniform1i(f->u_tonemap, tonemap);
    glBindVertexArray(f->vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
}
