/* interop.h: CUDA-GL interop for the film's pixel buffer. In a build without CUDA every call
 * fails with a reason. */
#ifndef RC_VIEW_INTEROP_H
#define RC_VIEW_INTEROP_H

#include "../wavefront/wavefront.h"

/* Register GL buffer `pbo` for write-discard access: 0 and *resource, or -1 and why. Fails
 * when the current GL context does not run on the CUDA device. */
int rc_interop_register(unsigned pbo, void **resource, rc_error *why);
/* Map, copy the renderer's film sums into the buffer, unmap. */
int rc_interop_copy(void *resource, rc_renderer *r, rc_error *err);
void rc_interop_unregister(void *resource);

#endif /* RC_VIEW_INTEROP_H */
