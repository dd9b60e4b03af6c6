/* bench_input.c: the benchmark's inputs on the host and the check of each result against
 * the serial reference. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bench_job_in_place(const bench_job *job) {
    return job->op == BENCH_OP_REMOVE || job->op == BENCH_OP_THRUST ||
           job->op == BENCH_OP_THRUST_LIST || job->op == BENCH_OP_AUTO_LIST;
}

/* Element i: its index in the first 4 bytes (elem_size >= 4) so that a result can be checked
 * as a multiset in one pass, random bytes after, so no two runs of bytes look alike. */
static void make_data(unsigned char *data, size_t n, size_t es, uint64_t seed) {
    for (size_t i = 0; i < n; i++) {
        unsigned char *e = data + i * es;
        uint64_t h = seed ^ (i * 0x9E3779B97F4A7C15ull);
        for (size_t b = 0; b < es; b += 8) {
            uint64_t w = cli_rand(&h);
            memcpy(e + b, &w, es - b < 8 ? es - b : 8);
        }
        if (es >= 4) {
            uint32_t idx = (uint32_t)i;
            memcpy(e, &idx, 4);
        }
    }
}

/* The removal list from the stencil, in slot order, and a Fisher-Yates shuffle of it; r is the
 * share of the list inside the red zone [n-k, n). */
static void make_lists(bench_input *in, uint64_t *s) {
    size_t j = 0, red = 0;
    for (size_t i = 0; i < in->n; i++)
        if (!in->flags[i]) in->removed_slot[j++] = (uint32_t)i;
    for (size_t i = 0; i < in->k; i++) red += in->removed_slot[i] >= in->n - in->k;
    in->red_share = in->k ? (double)red / (double)in->k : 0.0;
    memcpy(in->removed_random, in->removed_slot, in->k * sizeof(uint32_t));
    for (size_t i = in->k; i > 1; i--) {
        size_t r = (size_t)(cli_rand(s) % i);
        uint32_t t = in->removed_random[i - 1];
        in->removed_random[i - 1] = in->removed_random[r];
        in->removed_random[r] = t;
    }
}

int bench_input_make(bench_input *in, size_t n, size_t elem_size, double removed,
                     const bench_pattern *pattern, uint64_t seed, char *why, size_t cap) {
    memset(in, 0, sizeof *in);
    in->n = n;
    in->elem_size = elem_size;
    in->data = malloc(n * elem_size);
    in->out = malloc(n * elem_size);
    in->flags = malloc(n);
    uint64_t s = seed * 0xD1B54A32D192ED03ull + 7;
    int rc = !in->data || !in->out || !in->flags ? -1 : 0;
    if (rc == 0) rc = bench_pattern_fill(in, pattern, removed, &s, why, cap);
    if (rc == 0) {
        size_t list_bytes = (in->k ? in->k : 1) * sizeof(uint32_t);
        in->removed_random = malloc(list_bytes);
        in->removed_slot = malloc(list_bytes);
        rc = !in->removed_random || !in->removed_slot ? -1 : 0;
    }
    if (rc) {
        bench_input_free(in);
        return rc;
    }
    make_data(in->data, n, elem_size, seed);
    make_lists(in, &s);
    return 0;
}

void bench_input_free(bench_input *in) {
    free(in->data);
    free(in->out);
    free(in->flags);
    free(in->removed_random);
    free(in->removed_slot);
    memset(in, 0, sizeof *in);
}

static int check_stable(const bench_input *in, char *why, size_t cap) {
    size_t es = in->elem_size, j = 0;
    for (size_t i = 0; i < in->n; i++) {
        if (!in->flags[i]) continue;
        if (memcmp(in->out + j * es, in->data + i * es, es)) {
            snprintf(why, cap, "output %zu is not input %zu (the %zu-th kept element)", j, i, j);
            return 0;
        }
        j++;
    }
    return 1;
}

/* Each output names its source in its first 4 bytes: it must be a kept element, seen once,
 * and equal to it byte for byte. With count == n - k that is the kept multiset exactly. */
static int check_by_index(const bench_input *in, size_t count, char *why, size_t cap) {
    size_t es = in->elem_size;
    uint64_t *seen = calloc((in->n + 63) / 64, sizeof *seen);
    if (!seen) {
        snprintf(why, cap, "out of host memory for the check");
        return 0;
    }
    int ok = 1;
    for (size_t j = 0; j < count && ok; j++) {
        const unsigned char *e = in->out + j * es;
        uint32_t idx;
        memcpy(&idx, e, 4);
        if (idx >= in->n || !in->flags[idx]) {
            snprintf(why, cap, "output %zu holds element %u, which was removed", j, idx);
            ok = 0;
        } else if ((seen[idx / 64] >> (idx % 64)) & 1u) {
            snprintf(why, cap, "output %zu repeats element %u", j, idx);
            ok = 0;
        } else if (memcmp(e, in->data + (size_t)idx * es, es)) {
            snprintf(why, cap, "output %zu: bytes of element %u are damaged", j, idx);
            ok = 0;
        }
        if (ok) seen[idx / 64] |= (uint64_t)1 << (idx % 64);
    }
    free(seen);
    return ok;
}

/* Elements of 1..3 bytes: compare histograms of their values. */
static int check_by_histogram(const bench_input *in, size_t count, char *why, size_t cap) {
    size_t es = in->elem_size, bins = (size_t)1 << (8 * es);
    uint32_t *hist = calloc(bins, sizeof *hist);
    if (!hist) {
        snprintf(why, cap, "out of host memory for the check");
        return 0;
    }
    for (size_t i = 0; i < in->n; i++) {
        uint32_t v = 0;
        if (!in->flags[i]) continue;
        memcpy(&v, in->data + i * es, es);
        hist[v]++;
    }
    for (size_t j = 0; j < count; j++) {
        uint32_t v = 0;
        memcpy(&v, in->out + j * es, es);
        hist[v]--;
    }
    int ok = 1;
    for (size_t v = 0; v < bins && ok; v++) {
        if (hist[v]) {
            snprintf(why, cap, "value %zu appears a different number of times than kept", v);
            ok = 0;
        }
    }
    free(hist);
    return ok;
}

int bench_input_check(const bench_input *in, size_t count, int stable, char *why, size_t cap) {
    if (count != in->n - in->k) {
        snprintf(why, cap, "kept %zu, want %zu", count, in->n - in->k);
        return 0;
    }
    if (stable) return check_stable(in, why, cap);
    if (in->elem_size >= 4) return check_by_index(in, count, why, cap);
    return check_by_histogram(in, count, why, cap);
}
