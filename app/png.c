/* png.c: 8-bit RGB PNG through zlib, the pieces of rows filtered and deflated by a pool of
 * POSIX threads, then written in order by the calling thread (png.h). */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "png.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define PNG_PIECE_BYTES (256u << 10) /* filtered bytes a piece, about */
#define PNG_MAX_THREADS 32
/* zlib level 1 with Z_RLE: the speed and size chosen in docs/design.md#tuning-evidence */
#define PNG_LEVEL 1

/* One piece: its rows' filtered bytes deflated, and what the writer needs of them. */
typedef struct {
    unsigned char *data; /* raw deflate, ending on a byte boundary */
    size_t len;
    uLong crc;   /* crc32 of data */
    uLong adler; /* adler32 of the filtered bytes */
    size_t raw;  /* filtered bytes */
} png_piece;

typedef struct {
    uint32_t width, height, piece_rows, pieces;
    rc_png_row_fn row;
    void *ctx;
    png_piece *piece;
    atomic_uint next; /* the next piece to take */
    atomic_int error; /* the first error, 0 if none */
} png_job;

/* A worker's buffers: two input rows (this one and the one above), the candidate filtered
 * rows, a piece's filtered bytes and a deflate stream. */
typedef struct {
    unsigned char *in[2], *zero, *cand, *filtered;
    z_stream z;
    int z_ready;
} png_worker;

uint32_t rc_png_piece_rows(uint32_t width) {
    size_t line = 1 + 3 * (size_t)width;
    return line >= PNG_PIECE_BYTES ? 1 : (uint32_t)(PNG_PIECE_BYTES / line);
}

static unsigned char paeth(unsigned char a, unsigned char b, unsigned char c) {
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* The filters None, Sub, Up, Average and Paeth of one row (PNG spec, section 9.2), three bytes
 * a pixel; the one whose bytes, read as signed, have the least sum of absolute values (the
 * spec's suggested heuristic, section 12.8) goes to out[0] (its type) and out[1..n]. */
static void filter_row(const unsigned char *x, const unsigned char *up, size_t n,
                       unsigned char *cand, unsigned char *out) {
    unsigned char *f[5] = {(unsigned char *)x, cand, cand + n, cand + 2 * n, cand + 3 * n};
    for (size_t i = 0; i < n; i++) {
        unsigned a = i >= 3 ? x[i - 3] : 0, c = i >= 3 ? up[i - 3] : 0;
        f[1][i] = (unsigned char)(x[i] - a);
        f[2][i] = (unsigned char)(x[i] - up[i]);
        f[3][i] = (unsigned char)(x[i] - ((a + up[i]) >> 1));
        f[4][i] = (unsigned char)(x[i] - paeth((unsigned char)a, up[i], (unsigned char)c));
    }
    int best = 0;
    unsigned long best_sum = 0;
    for (int k = 0; k < 5; k++) {
        unsigned long sum = 0;
        for (size_t i = 0; i < n; i++) sum += f[k][i] < 128 ? f[k][i] : 256u - f[k][i];
        if (k == 0 || sum < best_sum) best = k, best_sum = sum;
    }
    out[0] = (unsigned char)best;
    memcpy(out + 1, f[best], n);
}

/* Deflate n bytes into p->data, growing it when the bound was short. */
static int deflate_piece(z_stream *z, const unsigned char *in, size_t n, int last, png_piece *p) {
    size_t cap = deflateBound(z, (uLong)n) + 16;
    p->data = malloc(cap);
    if (!p->data) return ENOMEM;
    z->next_in = (unsigned char *)in;
    z->avail_in = (uInt)n;
    int flush = last ? Z_FINISH : Z_SYNC_FLUSH;
    for (;;) {
        z->next_out = p->data + p->len;
        z->avail_out = (uInt)(cap - p->len);
        int zr = deflate(z, flush);
        p->len = cap - z->avail_out;
        if (last ? zr == Z_STREAM_END : z->avail_out != 0) break;
        if (zr == Z_STREAM_ERROR || z->avail_out != 0) return EINVAL; /* no progress */
        unsigned char *grown = realloc(p->data, 2 * cap);
        if (!grown) return ENOMEM;
        p->data = grown;
        cap *= 2;
    }
    p->crc = crc32(0, p->data, (uInt)p->len);
    return 0;
}

/* Filter and deflate piece k: its rows, each filtered against the row above it. */
static int do_piece(png_job *job, png_worker *w, uint32_t k) {
    size_t n = 3 * (size_t)job->width, line = n + 1;
    uint32_t y0 = k * job->piece_rows;
    uint32_t y1 = y0 + job->piece_rows < job->height ? y0 + job->piece_rows : job->height;
    const unsigned char *up = y0 ? job->row(job->ctx, y0 - 1, w->in[(y0 - 1) & 1]) : w->zero;
    for (uint32_t y = y0; y < y1; y++) {
        const unsigned char *x = job->row(job->ctx, y, w->in[y & 1]);
        filter_row(x, up, n, w->cand, w->filtered + (y - y0) * line);
        up = x;
    }
    png_piece *p = &job->piece[k];
    p->raw = (y1 - y0) * line;
    p->adler = adler32(adler32(0, NULL, 0), w->filtered, (uInt)p->raw);
    if (deflateReset(&w->z) != Z_OK) return EINVAL;
    return deflate_piece(&w->z, w->filtered, p->raw, k + 1 == job->pieces, p);
}

static void worker_free(png_worker *w) {
    if (w->z_ready) deflateEnd(&w->z);
    free(w->in[0]);
}

static int worker_init(png_worker *w, const png_job *job) {
    size_t n = 3 * (size_t)job->width;
    memset(w, 0, sizeof *w);
    /* in[0], in[1], zero: n each; cand: 4 n; filtered: the piece's lines */
    w->in[0] = calloc(1, 7 * n + (size_t)job->piece_rows * (n + 1));
    if (!w->in[0]) return ENOMEM;
    w->in[1] = w->in[0] + n;
    w->zero = w->in[0] + 2 * n;
    w->cand = w->in[0] + 3 * n;
    w->filtered = w->in[0] + 7 * n;
    int zr = deflateInit2(&w->z, PNG_LEVEL, Z_DEFLATED, -15, 9, Z_RLE);
    if (zr != Z_OK) return zr == Z_MEM_ERROR ? ENOMEM : EINVAL;
    w->z_ready = 1;
    return 0;
}

/* Take pieces until none is left or a worker failed. */
static void *work(void *arg) {
    png_job *job = arg;
    png_worker w;
    int e = worker_init(&w, job);
    for (uint32_t k; !e && atomic_load(&job->error) == 0 &&
                     (k = atomic_fetch_add(&job->next, 1)) < job->pieces;)
        e = do_piece(job, &w, k);
    worker_free(&w);
    if (e) {
        int none = 0;
        atomic_compare_exchange_strong(&job->error, &none, e);
    }
    return NULL;
}

static unsigned thread_count(unsigned threads, uint32_t pieces) {
    if (threads == 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
#ifdef CPU_COUNT
        /* the CPUs this process may run on: a launcher (mpirun) may have bound it to fewer */
        cpu_set_t set;
        if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
            cpus = CPU_COUNT(&set);
#endif
        threads = cpus > PNG_MAX_THREADS ? PNG_MAX_THREADS : cpus < 1 ? 1 : (unsigned)cpus;
    }
    return threads < pieces ? threads : pieces;
}

/* Run the workers: threads - 1 started, the calling thread the last. */
static int run_workers(png_job *job, unsigned threads) {
    pthread_t tid[PNG_MAX_THREADS];
    unsigned started = 0;
    if (threads > PNG_MAX_THREADS) threads = PNG_MAX_THREADS;
    while (started + 1 < threads && pthread_create(&tid[started], NULL, work, job) == 0) started++;
    work(job);
    for (unsigned i = 0; i < started; i++) pthread_join(tid[i], NULL);
    return atomic_load(&job->error);
}

static void put_be32(unsigned char *b, uLong v) {
    b[0] = (unsigned char)(v >> 24);
    b[1] = (unsigned char)(v >> 16);
    b[2] = (unsigned char)(v >> 8);
    b[3] = (unsigned char)v;
}

static int put(FILE *f, const void *p, size_t n) {
    return n == 0 || fwrite(p, 1, n, f) == n;
}

/* A chunk whose data are head, body and tail one after another (any may be empty); body's
 * crc32 is given. */
static int put_chunk(FILE *f, const char *type, const unsigned char *head, size_t nh,
                     const unsigned char *body, size_t nb, uLong body_crc,
                     const unsigned char *tail, size_t nt) {
    unsigned char len[4], crc[4];
    put_be32(len, (uLong)(nh + nb + nt));
    uLong c = crc32(0, (const unsigned char *)type, 4); /* crc32 of NULL is 0, not c */
    if (nh) c = crc32(c, head, (uInt)nh);
    if (nb) c = crc32_combine(c, body_crc, (z_off_t)nb);
    if (nt) c = crc32(c, tail, (uInt)nt);
    put_be32(crc, c);
    int ok = put(f, len, 4) && put(f, type, 4) && put(f, head, nh) && put(f, body, nb) &&
             put(f, tail, nt) && put(f, crc, 4);
    return ok ? 0 : -1;
}

/* The signature, IHDR, one IDAT a piece (the zlib header before the first piece, the adler32
 * of all the filtered bytes after the last), IEND. */
static int put_file(FILE *f, const png_job *job) {
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    unsigned char ihdr[13] = {0, 0, 0, 0, 0, 0, 0, 0, 8, 2, 0, 0, 0}; /* 8-bit RGB */
    put_be32(ihdr, job->width);
    put_be32(ihdr + 4, job->height);
    /* CMF 0x78: deflate, 32 KiB window; FLG 0x01: FLEVEL 0 (fastest), FCHECK (CMF FLG % 31 == 0) */
    unsigned char zhead[2] = {0x78, 0x01}, adler[4];
    uLong a = adler32(0, NULL, 0);
    for (uint32_t k = 0; k < job->pieces; k++)
        a = adler32_combine(a, job->piece[k].adler, (z_off_t)job->piece[k].raw);
    put_be32(adler, a);
    int rc = put(f, sig, 8) ? 0 : -1;
    if (rc == 0) rc = put_chunk(f, "IHDR", ihdr, 13, NULL, 0, 0, NULL, 0);
    for (uint32_t k = 0; rc == 0 && k < job->pieces; k++) {
        const png_piece *p = &job->piece[k];
        int last = k + 1 == job->pieces;
        rc = put_chunk(f, "IDAT", zhead, k == 0 ? 2 : 0, p->data, p->len, p->crc, adler,
                       last ? 4 : 0);
    }
    if (rc == 0) rc = put_chunk(f, "IEND", NULL, 0, NULL, 0, 0, NULL, 0);
    if (rc == 0) rc = fflush(f);
    return rc == 0 ? 0 : errno ? errno : EIO;
}

int rc_png_write_rows(FILE *f, uint32_t width, uint32_t height, rc_png_row_fn row, void *ctx,
                      unsigned threads) {
    if (width == 0 || height == 0) return EINVAL;
    /* PNG's limit is 2^31 - 1; a piece's length must also fit a uInt */
    if (width > (1u << 29) / 3 || height > 0x7fffffffu) return EOVERFLOW;
    png_job job = {.width = width, .height = height, .row = row, .ctx = ctx};
    job.piece_rows = rc_png_piece_rows(width);
    job.pieces = (uint32_t)(((uint64_t)height + job.piece_rows - 1) / job.piece_rows);
    atomic_init(&job.next, 0);
    atomic_init(&job.error, 0);
    job.piece = calloc(job.pieces, sizeof *job.piece);
    if (!job.piece) return ENOMEM;
    int e = run_workers(&job, thread_count(threads, job.pieces));
    if (e == 0) {
        errno = 0;
        e = put_file(f, &job);
    }
    for (uint32_t k = 0; k < job.pieces; k++) free(job.piece[k].data);
    free(job.piece);
    return e;
}

typedef struct {
    const unsigned char *rgb;
    size_t stride;
} png_memory;

static const unsigned char *memory_row(void *ctx, uint32_t y, unsigned char *scratch) {
    (void)scratch;
    const png_memory *m = ctx;
    return m->rgb + (size_t)y * m->stride;
}

int rc_png_write(FILE *f, const unsigned char *rgb, uint32_t width, uint32_t height,
                 unsigned threads) {
    png_memory m = {rgb, 3 * (size_t)width};
    return rc_png_write_rows(f, width, height, memory_row, &m, threads);
}
