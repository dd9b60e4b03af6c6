/* png.h: 8-bit RGB PNG, filtered and deflated in parallel (zlib, POSIX threads).
 *
 *   FILE *f = fopen("out.png", "wb");
 *   int e = rc_png_write(f, rgb, width, height, 0);   // 0: as many threads as pay
 *   if (e != 0) fprintf(stderr, "out.png: %s\n", strerror(e));
 *
 * The rows are cut into pieces of rc_png_piece_rows(width) rows; each piece is filtered and
 * compressed on its own, as raw deflate ending on a byte boundary (Z_SYNC_FLUSH), and the
 * pieces, one after another, form the zlib stream of the IDAT chunks, as pigz does. The piece
 * size depends on the width alone, so the file's bytes are the same whatever the thread
 * count. Nothing is printed: the functions return 0 or an errno value. */
#ifndef RC_PNG_H
#define RC_PNG_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Row y (top row 0) as 3 * width bytes R, G, B: a pointer into the caller's memory, or
 * `scratch` (3 * width bytes) filled. Called from several threads at once, each with its own
 * scratch, and more than once for some rows (a piece reads the row above it). */
typedef const unsigned char *(*rc_png_row_fn)(void *ctx, uint32_t y, unsigned char *scratch);

/* Write the PNG of width x height pixels (both >= 1) whose rows `row` gives, at f's position,
 * and flush f. threads: how many work, at most 32 and one a piece; 0: one an online CPU; 1: the
 * calling thread alone. Returns 0, or ENOMEM, EOVERFLOW (too large), EINVAL (a zero size) or
 * the error of the write (EIO where the stream gives none). A thread that fails to start leaves its
 * pieces to the others: the file is the same. */
int rc_png_write_rows(FILE *f, uint32_t width, uint32_t height, rc_png_row_fn row, void *ctx,
                      unsigned threads);

/* The same for an image in memory: 3 * width bytes a row, top row first. */
int rc_png_write(FILE *f, const unsigned char *rgb, uint32_t width, uint32_t height,
                 unsigned threads);

/* The rows of each piece (the last one may have fewer): about 256 KiB of filtered bytes. */
uint32_t rc_png_piece_rows(uint32_t width);

#ifdef __cplusplus
}
#endif
#endif /* RC_PNG_H */
