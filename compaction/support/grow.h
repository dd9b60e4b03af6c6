/* grow.h: growable arrays: a buffer, its capacity, and one call that makes room. */
#ifndef RC_GROW_H
#define RC_GROW_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Make room for `need` elements of `elem` bytes in *buf (capacity *cap, doubled as needed).
 * Returns 0, or -1 on overflow or when out of memory (then *buf is unchanged). */
int rc_grow(void **buf, size_t *cap, size_t need, size_t elem);

#ifdef __cplusplus
}
#endif
#endif /* RC_GROW_H */
