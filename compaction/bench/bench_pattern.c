/* bench_pattern.c: where the removed elements lie: exactly k of them (a mask: its dark pixels)
 * at random, in runs, in 2-D blobs or image masks (Moreira 2009 Table 1), or with a share of
 * the removal list in the red zone (Redzone Fig. 6): one density, different structures. */
#include "bench_image.h"
#include "bench_pattern.h"
#include "num_parse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- parsing ---- */

/* "assets/masks/hand.png" -> "hand" */
static void base_name(const char *path, char *out, size_t cap) {
    const char *slash = strrchr(path, '/');
    const char *b = slash ? slash + 1 : path;
    size_t len = strcspn(b, ".");
    if (len >= cap) len = cap - 1;
    memcpy(out, b, len);
    out[len] = 0;
}

static int parse_mask(const char *path, int invert, bench_pattern *p, char *why, size_t cap) {
    int w = 0, h = 0;
    if (strlen(path) >= sizeof p->path) {
        snprintf(why, cap, "mask path too long");
        return -1;
    }
    unsigned char *pixels = bench_image_load(path, &w, &h, why, cap);
    if (!pixels) return -1;
    bench_image_free(pixels);
    char base[32];
    base_name(path, base, sizeof base);
    p->kind = BENCH_PAT_MASK;
    p->invert = invert;
    strcpy(p->path, path);
    snprintf(p->name, sizeof p->name, "%s:%s", invert ? "invmask" : "mask", base);
    return 0;
}

uint64_t cli_rand(uint64_t *state) {
    /* splitmix64: every seed, 0 included, gives a good sequence */
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int bench_pattern_parse(const char *text, bench_pattern *p, char *why, size_t cap) {
    memset(p, 0, sizeof *p);
    if (!strcmp(text, "random") || !strcmp(text, "blobs")) {
        p->kind = text[0] == 'r' ? BENCH_PAT_RANDOM : BENCH_PAT_BLOBS;
        snprintf(p->name, sizeof p->name, "%s", text);
        return 0;
    }
    if (!strncmp(text, "runs:", 5)) {
        if (num_parse_double(text + 5, &p->param) || !(p->param >= 1.0 && p->param <= 1e9)) {
            snprintf(why, cap, "runs:L wants a mean run length L >= 1");
            return -1;
        }
        p->kind = BENCH_PAT_RUNS;
        snprintf(p->name, sizeof p->name, "runs:%g", p->param);
        return 0;
    }
    if (!strncmp(text, "red:", 4)) {
        if (num_parse_fraction(text + 4, &p->param)) {
            snprintf(why, cap, "red:R wants a share 0..1 or 0%%..100%%");
            return -1;
        }
        p->kind = BENCH_PAT_RED;
        snprintf(p->name, sizeof p->name, "red:%g", p->param);
        return 0;
    }
    if (!strncmp(text, "mask:", 5)) return parse_mask(text + 5, 0, p, why, cap);
    if (!strncmp(text, "invmask:", 8)) return parse_mask(text + 8, 1, p, why, cap);
    snprintf(why, cap, "valid: random, runs:L, blobs, mask:FILE.png, invmask:FILE.png, red:R");
    return -1;
}

int bench_pattern_own_density(const bench_pattern *p) {
    return p->kind == BENCH_PAT_MASK;
}

/* ---- the patterns ---- */

/* Selection sampling (Knuth, TAOCP 3.4.2, Algorithm S): exactly `take` of the `len` flags
 * cleared, each subset equally likely. */
static void remove_some(uint8_t *flags, size_t len, size_t take, uint64_t *s) {
    for (size_t i = 0; i < len; i++) {
        int hit = take && cli_rand(s) % (len - i) < take;
        if (hit) {
            flags[i] = 0;
            take--;
        }
    }
}

/* A random composition of `total` into parts: `cuts` distinct cut points among 1 .. total-1,
 * drawn by selection sampling as the walk goes, so the part lengths are close to geometric. */
typedef struct composer {
    size_t total, pos, cuts;
} composer;

static size_t next_part(composer *c, uint64_t *s) {
    size_t start = c->pos;
    if (c->cuts == 0) {
        c->pos = c->total;
        return c->total - start;
    }
    for (size_t p = start + 1;; p++) {
        if (cli_rand(s) % (c->total - p) < c->cuts) {
            c->cuts--;
            c->pos = p;
            return p - start;
        }
    }
}

/* m = n / (2L) runs of each kind alternate, so the mean run length is L: at removed fraction f
 * the removed runs average 2Lf elements and the kept runs 2L(1-f). */
static void fill_runs(bench_input *in, double mean, uint64_t *s) {
    size_t n = in->n, k = in->k;
    if (k == 0 || k == n) {
        memset(in->flags, k == 0, n);
        return;
    }
    size_t m = (size_t)((double)n / (2.0 * mean) + 0.5), most = k < n - k ? k : n - k;
    if (m < 1) m = 1;
    if (m > most) m = most;
    composer kept = {n - k, 0, m - 1}, removed = {k, 0, m - 1};
    int keep = (int)(cli_rand(s) & 1);
    size_t i = 0;
    for (size_t r = 0; r < 2 * m; r++, keep = !keep) {
        size_t len = next_part(keep ? &kept : &removed, s);
        memset(in->flags + i, keep, len);
        i += len;
    }
}

/* The grid the 2-D patterns lie on: element i at (i % w, i / w), w = ceil(sqrt(n)). */
static size_t grid_width(size_t n) {
    size_t w = (size_t)sqrt((double)n);
    while (w * w < n) w++;
    return w ? w : 1;
}

/* The bin, counting from the top of a 65536-bin histogram, that holds the need-th highest
 * value (need >= 1, at most the total); *above: how many lie in the bins above it. */
static size_t kth_bin(const size_t *hist, size_t need, size_t *above) {
    size_t b = 65535, acc = 0;
    while (acc + hist[b] < need) acc += hist[b--];
    *above = acc;
    return b;
}

/* Clear the flags of the k highest scores (ties: the lowest indices first) in three passes: a
 * histogram of the high 16 bits finds the bin of the k-th score, one of the low 16 bits inside
 * that bin finds the score itself, and a last pass clears the flags. */
static int remove_top_k(uint8_t *flags, const uint32_t *score, size_t n, size_t k) {
    memset(flags, 1, n);
    if (k == 0) return 0;
    size_t *hist = calloc(65536, sizeof *hist);
    if (!hist) return -1;
    for (size_t i = 0; i < n; i++) hist[score[i] >> 16]++;
    size_t above_hi, above_lo, hi = kth_bin(hist, k, &above_hi);
    memset(hist, 0, 65536 * sizeof *hist);
    for (size_t i = 0; i < n; i++)
        if (score[i] >> 16 == hi) hist[score[i] & 0xffffu]++;
    size_t lo = kth_bin(hist, k - above_hi, &above_lo);
    uint32_t t = (uint32_t)(hi << 16 | lo);
    size_t ties = k - above_hi - above_lo; /* how many scores equal to t go */
    for (size_t i = 0; i < n; i++) {
        int drop = score[i] > t;
        if (score[i] == t && ties) {
            drop = 1;
            ties--;
        }
        if (drop) flags[i] = 0;
    }
    free(hist);
    return 0;
}

/* One octave of value noise: random values on a lattice of `cell`-pixel squares, blended with
 * a smoothstep; `side` lattice points per row. */
typedef struct octave {
    size_t cell, side;
    float amp, *v;
} octave;

static float smooth(float t) {
    return t * t * (3.0f - 2.0f * t);
}

static float octave_at(const octave *o, size_t x, size_t y) {
    size_t ix = x / o->cell, iy = y / o->cell;
    float fx = smooth(((float)(x % o->cell) + 0.5f) / (float)o->cell);
    float fy = smooth(((float)(y % o->cell) + 0.5f) / (float)o->cell);
    const float *r0 = o->v + iy * o->side + ix, *r1 = r0 + o->side;
    float a = r0[0] + (r0[1] - r0[0]) * fx, b = r1[0] + (r1[1] - r1[0]) * fx;
    return o->amp * (a + (b - a) * fy);
}

static int octave_make(octave *o, size_t w, size_t cell, float amp, uint64_t *s) {
    o->cell = cell < 2 ? 2 : cell;
    o->side = w / o->cell + 2;
    o->amp = amp;
    o->v = malloc(o->side * o->side * sizeof *o->v);
    if (!o->v) return -1;
    for (size_t i = 0; i < o->side * o->side; i++)
        o->v[i] = (float)(cli_rand(s) >> 40) / (float)(1u << 24);
    return 0;
}

/* Blobs: two octaves of value noise (blobs a sixth of the grid wide, ragged by a finer octave);
 * the k highest points of the field are removed, as if a mask had been thresholded. */
static int fill_blobs(bench_input *in, uint64_t *s) {
    size_t n = in->n, w = grid_width(n);
    octave o[2] = {{0, 0, 0, NULL}, {0, 0, 0, NULL}};
    uint32_t *score = malloc(n * sizeof *score);
    int failed =
        !score || octave_make(&o[0], w, w / 6, 1.0f, s) || octave_make(&o[1], w, w / 24, 0.35f, s);
    for (size_t i = 0; i < n && !failed; i++) {
        float v = octave_at(&o[0], i % w, i / w) + octave_at(&o[1], i % w, i / w);
        score[i] = (uint32_t)(v / 1.35f * 4294967040.0f);
    }
    if (!failed) failed = remove_top_k(in->flags, score, n, in->k);
    free(score);
    free(o[0].v);
    free(o[1].v);
    return failed ? -1 : 0;
}

/* A mask resized (nearest pixel) to the grid: white (>= 128) = keep, or the negative. */
static int fill_mask(bench_input *in, const bench_pattern *p, char *why, size_t cap) {
    int iw = 0, ih = 0;
    unsigned char *px = bench_image_load(p->path, &iw, &ih, why, cap);
    if (!px) return -2;
    size_t n = in->n, w = grid_width(n), h = (n + w - 1) / w, k = 0;
    for (size_t i = 0; i < n; i++) {
        size_t sx = (i % w) * (size_t)iw / w, sy = (i / w) * (size_t)ih / h;
        int keep = (px[sy * (size_t)iw + sx] >= 128) != p->invert;
        in->flags[i] = (uint8_t)keep;
        k += !keep;
    }
    in->k = k;
    bench_image_free(px);
    return 0;
}

/* A share R of the k removed indices inside the red zone [n-k, n), the rest below it, each part
 * uniform. Below the red zone there are only n-k places, which bounds R from below. */
static void fill_red(bench_input *in, double share, uint64_t *s) {
    size_t n = in->n, k = in->k, z = n - k;
    size_t red = (size_t)(share * (double)k + 0.5);
    if (k > z && red < k - z) red = k - z;
    memset(in->flags, 1, n);
    remove_some(in->flags + z, k, red, s);
    remove_some(in->flags, z, k - red, s);
}

int bench_pattern_fill(bench_input *in, const bench_pattern *p, double removed, uint64_t *s,
                       char *why, size_t cap) {
    in->k = (size_t)(removed * (double)in->n + 0.5);
    if (in->k > in->n) in->k = in->n;
    switch (p->kind) {
    case BENCH_PAT_RUNS:
        fill_runs(in, p->param, s);
        return 0;
    case BENCH_PAT_BLOBS:
        return fill_blobs(in, s);
    case BENCH_PAT_MASK:
        return fill_mask(in, p, why, cap);
    case BENCH_PAT_RED:
        fill_red(in, p->param, s);
        return 0;
    case BENCH_PAT_RANDOM:
        break;
    }
    memset(in->flags, 1, in->n);
    remove_some(in->flags, in->n, in->k, s);
    return 0;
}
