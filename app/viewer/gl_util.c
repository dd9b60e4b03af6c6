/* gl_util.c: shader compilation with the driver's log turned into a one-line error. */
#include "gl_util.h"

#include <stdio.h>
#include <string.h>

/* The first line of a compile or link log, for a one-line message. */
static void first_line(char *log) {
    char *nl = strchr(log, '\n');
    if (nl) *nl = '\0';
}

/* "what: " and the first line of a shader's or program's info log (get_log reads it) into err. */
static void failed(GLuint obj, void (*get_log)(GLuint, GLsizei, GLsizei *, GLchar *),
                   const char *what, rc_error *err) {
    char log[512] = "";
    get_log(obj, sizeof log, NULL, log);
    first_line(log);
    rc_fail(err, "%s: %s", what, log);
}

static GLuint compile(const char *name, GLenum type, const char *src, rc_error *err) {
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (ok) return s;
    char what[64];
    snprintf(what, sizeof what, "%s.%s", name, type == GL_VERTEX_SHADER ? "vert" : "frag");
    failed(s, glGetShaderInfoLog, what, err);
    glDeleteShader(s);
    return 0;
}

GLuint rc_gl_program(const char *name, const char *vert, const char *frag, rc_error *err) {
    GLuint vs = compile(name, GL_VERTEX_SHADER, vert, err);
    if (!vs) return 0;
    GLuint fs = compile(name, GL_FRAGMENT_SHADER, frag, err);
    if (!fs) {
        glDeleteShader(vs);
        return 0;
    }
    GLuint p = glCreateProgram();
    glAttachShader(p, vs);
    glAttachShader(p, fs);
    glLinkProgram(p);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (ok) return p;
    char what[64];
    snprintf(what, sizeof what, "%s: link", name);
    failed(p, glGetProgramInfoLog, what, err);
    glDeleteProgram(p);
    return 0;
}
