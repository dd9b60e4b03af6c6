/* bench_pattern.h: what `compact bench` feeds a call: the input patterns (where the removed
 * elements lie) and the host input they fill, and the generator they draw from
 * (bench_pattern.c). */
#ifndef SC_BENCH_PATTERN_H
#define SC_BENCH_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Deterministic splitmix64 generator for masks and data. */
uint64_t cli_rand(uint64_t *state);

/* ---- input patterns: where the removed elements lie ---- */
typedef enum bench_pattern_kind {
    BENCH_PAT_RANDOM, /* exactly round(removed * n) removed at independent random places */
    BENCH_PAT_RUNS,   /* alternating runs of kept and of removed elements, mean run length L */
    BENCH_PAT_BLOBS,  /* clustered 2-D blobs of removed elements on a sqrt(n) x sqrt(n) grid */
    BENCH_PAT_MASK,   /* an image resized to the grid: white = keep (inverted: white = remove) */
    BENCH_PAT_RED     /* a share R of the removal list inside the red zone [n-k, n) */
} bench_pattern_kind;

typedef struct bench_pattern {
    bench_pattern_kind kind;
    double param; /* runs: mean run length L; red: the share R */
    int invert;   /* mask: Moreira's negative images ("i_"): white = remove */
    char path[512];
    char name[48]; /* "random", "runs:8", "blobs", "mask:hand", "invmask:hand", "red:0.25" */
} bench_pattern;

/* Parse "random", "runs:L", "blobs", "mask:FILE.png", "invmask:FILE.png", "red:R". A mask is
 * opened here, so that a bad file is a usage error. Returns 0, or -1 with `why` filled. */
int bench_pattern_parse(const char *text, bench_pattern *p, char *why, size_t cap);
/* 1 if the pattern fixes the removed fraction itself (masks): --removed does not apply. */
int bench_pattern_own_density(const bench_pattern *p);

/* ---- one input on the host; every set of a backend holds a copy ---- */
typedef struct bench_input {
    size_t n, elem_size;
    size_t k;                 /* removed elements: n - kept */
    double red_share;         /* r: the share of the removal list inside [n-k, n) */
    unsigned char *data;      /* n * elem_size; element i starts with its index (elem >= 4) */
    uint8_t *flags;           /* n, 1 = keep */
    uint32_t *removed_random; /* the k removed indices in random order */
    uint32_t *removed_slot;   /* the same, ascending */
    unsigned char *out;       /* n * elem_size: where a result is copied back to be checked */
} bench_input;

/* Set in->k = round(removed * n) (a mask: its own count) and fill in->flags (1 = keep) by the
 * pattern, drawing from the generator state *s. Returns 0, -1 if out of memory, -2 if a mask
 * cannot be read. */
int bench_pattern_fill(bench_input *in, const bench_pattern *p, double removed, uint64_t *s,
                       char *why, size_t cap);

#ifdef __cplusplus
}
#endif
#endif /* SC_BENCH_PATTERN_H */
