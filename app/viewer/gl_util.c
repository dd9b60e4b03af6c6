/* gl_util.c: shader compilation with the driver's log turned into a one-line error. */
#include "gl_util.h"

#include <string.h>

/* The first line of a compile or link log, for a one-line message. */
static void first_line(char *log) {
    char *nl = strchr(log, '\n');
    if (nl) *nl = '\0';
}

static GLuint compile(const char *name, GLenum type, const char *src, rc_error *err) {
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (ok) return s;
    char log[512] = "";
    glGetShaderInfoLog(s, sizeof log, NULL, log);
    first_line(log);
    rc_fail(err, "%s.%s: %s", name, type == GL_VERTEX_SHADER ? "vert" : "frag", log);
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
    char log[512] = "";
    glGetProgramInfoLog(p, sizeof log, NULL, log);
    first_line(log);
    rc_fail(err, "%s: link: %s", name, log);
    glDeleteProgram(p);
    return 0;
}
