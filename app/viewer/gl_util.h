/* gl_util.h: building GLSL programs from the sources embedded from shaders/. */
#ifndef RC_VIEW_GL_UTIL_H
#define RC_VIEW_GL_UTIL_H

#include "rc_error.h"

#include <epoxy/gl.h>

/* Compile and link; 0 on failure with err = "name: the driver's first log line". */
GLuint rc_gl_program(const char *name, const char *vert, const char *frag, rc_error *err);

#endif /* RC_VIEW_GL_UTIL_H */
