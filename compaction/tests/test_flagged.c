/* test_flagged.c: sc_compact_flagged, every flag-stencil algorithm of one backend, against the
 * serial reference: exactly when the algorithm is stable (or stability is asked), as a multiset
 * when not; nothing written past the kept elements; every recorded phase one of the table row's.
 * One matrix for both backends, each case once: sizes (0, 1, 2, 31..33, 255..257, 100003,
 * 2^20 + 7) x patterns; element sizes 1..256 (odd ones and 256 included); tile sizes x scan
 * variants x tile edges (tile - 1, tile, tile + 1, 3 tile + 5); RLZ variants; and the CUDA
 * specification matrix (sizes x patterns x element sizes x every tunable the algorithm reads).
 * auto runs the matrix twice, the second time with stability asked.
 * --backend cuda: each output also equals the CPU specification's (the same algorithm on the
 * CPU backend, same input and options) byte for byte, Jumping Jack's hole filling included;
 * where a GPU version cannot reproduce its specification's order, test_order_free() says why in
 * one line and the two are compared as multisets. The count comes back three ways in turn (host
 * pointer on the default stream; device pointer only, on a stream of its own; both), and, unless
 * --quick, n = 2^24 (element sizes 4 and 16) and 2^27 + 13 (4) follow (checked through each
 * element's index: the CPU specification would need tens of GB of host memory there).
 * Usage: test_flagged [--backend cpu|cuda] [--quick|--full] [ALGO...]   (default: every
 * flag-stencil algorithm the backend has; --quick: n <= 2^17 and no specification
 * cross-product, for the sanitizers; --full: also the specification cross-product of the
 * streams over 100000 and the large streams with element sizes 4..64, minutes per algorithm
 * on a GPU). Exits 77 (skipped) only when --backend cuda finds no CUDA device. */
#include "test_backend.h"

#include <string.h>
#ifdef SC_HAVE_CUDA
#include "test_cuda.h"
#endif

#define GUARD 64 /* poisoned bytes past the n elements */

static int checks = 0;

typedef struct flag_case {
    size_t n, es, tile;
    test_pattern pattern;
    sc_scan scan;
    sc_rlz_variant rlz;
    int stable; /* opt.require_stable (auto's second pass) */
    int mode;   /* CUDA count: 0 host, default stream; 1 device only, own stream; 2 both */
} flag_case;

/* Host copies (in, out, ref, spec, flags) and the backend's (d_*; the host ones on the CPU). */
typedef struct buffers {
    sc_backend backend;
    unsigned char *in, *out, *ref, *spec;
    uint8_t *flags, *seen;
    void *d_in, *d_out;
    uint8_t *d_flags;
    uint32_t *d_kept;
    void *stream; /* CUDA: a non-blocking cudaStream_t */
    size_t gen_n, gen_es, want;
    int gen_pattern; /* the stream now in the buffers (-1: none) */
} buffers;

/* ---- the matrix ---- */

typedef struct matrix {
    flag_case *c;
    size_t count, cap;
} matrix;

static void push(matrix *m, flag_case c) {
    m->c = test_grow(m->c, m->count, &m->cap, 1024, sizeof *m->c);
    m->c[m->count++] = c;
}

/* Adds one case, its tunables set to the defaults where the algorithm does not read them. */
static void add(matrix *m, const sc_algorithm_info *a, size_t n, size_t es, test_pattern p,
                size_t tile, sc_scan scan, sc_rlz_variant rlz, size_t max_n) {
    if (n > max_n) return;
    flag_case c = {n,
                   es,
                   (a->tunables & SC_TUNE_TILE) ? tile : SC_TILE_DEFAULT,
                   p,
                   (a->tunables & SC_TUNE_SCAN) ? scan : SC_SCAN_DEFAULT,
                   (a->tunables & SC_TUNE_RLZ) ? rlz : SC_RLZ_DEFAULT,
                   0,
                   0};
    push(m, c);
}

static int cmp_case(const void *x, const void *y) {
    const flag_case *a = x, *b = y;
    const size_t ka[] = {a->n, a->es, a->pattern, a->tile, a->scan, a->rlz, (size_t)a->stable},
                 kb[] = {b->n, b->es, b->pattern, b->tile, b->scan, b->rlz, (size_t)b->stable};
    return test_cmp_keys(ka, kb, sizeof ka / sizeof *ka);
}

/* The union of the matrices, each case once, ordered so that cases on the same stream follow
 * each other (the stream is generated once for them). */
static matrix build_matrix(const sc_algorithm_info *a, size_t max_n, int cuda, int quick,
                           int full) {
    matrix m = {NULL, 0, 0};
    const size_t T = SC_TILE_DEFAULT;
    const sc_scan SD = SC_SCAN_DEFAULT;
    const sc_rlz_variant RD = SC_RLZ_DEFAULT;
    /* 1. every size x every pattern, 4-byte elements, default options */
    for (size_t si = 0; si < test_num_sizes; si++)
        for (int p = 0; p < PAT_COUNT; p++)
            add(&m, a, test_sizes[si], 4, (test_pattern)p, T, SD, RD, max_n);
    /* 2. every element size, and those off the fast paths (odd, not a multiple of 4, the
     * largest), on three sizes */
    static const size_t es_n[] = {33, 257, 100003};
    static const size_t odd_es[] = {2, 3, 33, 256};
    for (size_t si = 0; si < 3; si++) {
        for (size_t ei = 0; ei < test_num_elem_sizes; ei++) {
            add(&m, a, es_n[si], test_elem_sizes[ei], PAT_RANDOM_50, T, SD, RD, max_n);
            add(&m, a, es_n[si], test_elem_sizes[ei], PAT_LONG_RUNS, T, SD, RD, max_n);
        }
        for (size_t ei = 0; ei < sizeof odd_es / sizeof odd_es[0]; ei++)
            add(&m, a, es_n[si], odd_es[ei], PAT_RANDOM_50, T, SD, RD, max_n);
    }
    /* 3. tiles x scan variants x sizes at the tile's edges */
    static const test_pattern tp[] = {PAT_RANDOM_10, PAT_RANDOM_90, PAT_ALTERNATING, PAT_ONE_END,
                                      PAT_LONG_RUNS};
    for (size_t ti = 0; ti < test_num_tiles; ti++) {
        size_t tile = test_tiles[ti];
        const size_t sizes[] = {tile - 1, tile, tile + 1, 3 * tile + 5, 100003};
        for (int sv = 0; sv < 2; sv++)
            for (size_t si = 0; si < 5; si++)
                for (size_t pi = 0; pi < sizeof tp / sizeof tp[0]; pi++)
                    add(&m, a, sizes[si], pi == 0 ? 12 : 4, tp[pi], tile,
                        sv ? SC_SCAN_BLELLOCH : SC_SCAN_HILLIS_STEELE, RD, max_n);
    }
    /* 4. RLZ run-length variants x tiles x patterns */
    for (int v = SC_RLZ_RECURSIVE_DOUBLING; v <= SC_RLZ_BALANCED_TREE; v++)
        for (size_t ti = 0; ti < test_num_tiles; ti++)
            for (int p = 0; p < PAT_COUNT; p++)
                add(&m, a, 100003, 8, (test_pattern)p, test_tiles[ti], SD, (sc_rlz_variant)v,
                    max_n);
    /* 5. the specification matrix: sizes x patterns x element sizes x every tunable value. Its
     * large streams (n > 100000) with every tunable are there for the comparison with the CPU
     * specification, with --full: sections 1, 3 and 4 take those streams through the same
     * kernels, at each tunable's default. --quick (the sanitizers) leaves the section out: its
     * kernels are those above. */
    static const size_t spec_es[] = {1, 4, 8, 12, 16, 64}, large_es[] = {4, 16};
    static const sc_scan scans[] = {SC_SCAN_HILLIS_STEELE, SC_SCAN_BLELLOCH};
    static const sc_rlz_variant rlzs[] = {SC_RLZ_RECURSIVE_DOUBLING, SC_RLZ_BALANCED_TREE};
    for (size_t si = 0; si < test_num_sizes && !quick; si++) {
        size_t n = test_sizes[si];
        int large = n > 100000;
        if (large && (!cuda || !full)) continue;
        size_t nes = large ? 2 : sizeof spec_es / sizeof spec_es[0];
        for (int p = 0; p < PAT_COUNT; p++)
            for (size_t ei = 0; ei < nes; ei++)
                for (size_t ti = 0; ti < test_num_tiles; ti++)
                    for (size_t s = 0; s < 2; s++)
                        for (size_t r = 0; r < 2; r++)
                            add(&m, a, n, large ? large_es[ei] : spec_es[ei], (test_pattern)p,
                                test_tiles[ti], scans[s], rlzs[r], max_n);
    }
    /* auto: everything again with stability asked */
    if (a->id == SC_ALGO_AUTO) {
        size_t count = m.count;
        for (size_t i = 0; i < count; i++) {
            flag_case c = m.c[i];
            c.stable = 1;
            push(&m, c);
        }
    }
    m.count = test_unique(m.c, m.count, sizeof *m.c, cmp_case);
    for (size_t i = 0; i < m.count; i++) m.c[i].mode = (int)(i % 3);
    return m;
}

/* ---- one case ---- */

/* 1 if out[0..kept) holds the kept elements of the loaded stream, each once (in input order when
 * `stable`). Elements of 4 bytes and more carry their index in their first 4 bytes
 * (test_make_data): one pass with a "seen" byte per input element instead of two sorts. */
static int same_kept(buffers *b, const unsigned char *out, size_t n, size_t es, size_t kept,
                     int stable) {
    if (kept != b->want) return 0;
    if (stable || es < 4) return test_same_elements(out, b->ref, kept, es, stable);
    return test_kept_once(out, kept, b->in, b->flags, n, es, b->seen, 0);
}

/* Every recorded phase must be one of the algorithm's phase names (auto: of its choice). */
static void check_phases(sc_context *ctx, const sc_algorithm_info *a) {
    const char *bad;
    size_t nt = test_phases(ctx, &a, &bad);
    ASSERT_TRUE(nt > 0, "no phase timings recorded: %s", a->name);
    ASSERT_TRUE(!bad, "%s: phase '%s' is not in '%s'", a->name, bad, a->phases);
}

static void set_options(sc_options *opt, const flag_case *c) {
    sc_options_init(opt);
    opt->tile = c->tile;
    opt->scan = c->scan;
    opt->rlz = c->rlz;
    opt->require_stable = c->stable;
}

/* One call on the backend with the case's count mode; the count in *kept. */
static sc_status call(sc_context *ctx, const sc_algorithm_info *a, buffers *b, const flag_case *c,
                      size_t *kept) {
    sc_options opt;
    set_options(&opt, c);
    opt.timing = 1;
    int mode = b->backend == SC_BACKEND_CUDA ? c->mode : 0;
#ifdef SC_HAVE_CUDA
    if (mode != 0) {
        /* The uploads and the poison went through the legacy stream, which a non-blocking
         * stream does not wait for. */
        CUDA_OK(cudaDeviceSynchronize());
        opt.stream = b->stream;
        opt.d_kept = b->d_kept;
        CUDA_OK(cudaMemsetAsync(b->d_kept, 0xff, sizeof *b->d_kept, (cudaStream_t)b->stream));
    }
#endif
    sc_status s = sc_compact_flagged(ctx, a->id, b->d_in, b->d_flags, b->d_out, c->n, c->es, &opt,
                                     mode == 1 ? NULL : kept);
    if (s != SC_OK || mode == 0) return s;
#ifdef SC_HAVE_CUDA
    uint32_t dk = 0;
    cudaStream_t st = (cudaStream_t)b->stream;
    CUDA_OK(cudaMemcpyAsync(&dk, b->d_kept, sizeof dk, cudaMemcpyDeviceToHost, st));
    CUDA_OK(cudaStreamSynchronize(st));
    if (mode == 2)
        ASSERT_TRUE(dk == *kept, "%s: device count %u, host count %zu", a->name, dk, *kept);
    *kept = dk;
#endif
    return s;
}

/* Generates the case's stream, unless the buffers hold it already, and its reference. */
static void load(buffers *b, const flag_case *c) {
    if (b->gen_n == c->n && b->gen_es == c->es && b->gen_pattern == (int)c->pattern) return;
    test_make_flags(b->flags, c->n, c->pattern, c->n + c->es);
    test_make_data(b->in, c->n, c->es, c->n * 31 + c->es);
    test_upload(b->backend, b->d_in, b->in, c->n * c->es);
    test_upload(b->backend, b->d_flags, b->flags, c->n);
    b->want = test_reference(b->in, b->flags, b->ref, c->n, c->es);
    b->gen_n = c->n;
    b->gen_es = c->es;
    b->gen_pattern = (int)c->pattern;
}

#define CASE_FMT "%s n=%zu es=%zu %s tile=%zu scan=%d rlz=%d stable=%d mode=%d"
#define CASE_ARGS                                                                                  \
    a->name, n, es, test_pattern_name(c->pattern), c->tile, c->scan, c->rlz, c->stable, c->mode

/* The CPU specification on the same input and options: the CUDA output must equal it byte for
 * byte, or as a multiset where `order_free` says why not. */
static void check_spec(sc_context *spec, const sc_algorithm_info *a, buffers *b, const flag_case *c,
                       size_t kept, const char *order_free) {
    size_t n = c->n, es = c->es, ks = (size_t)-1;
    sc_options opt;
    set_options(&opt, c);
    sc_status s = sc_compact_flagged(spec, a->id, b->in, b->flags, b->spec, n, es, &opt, &ks);
    checks++;
    ASSERT_STATUS(s, SC_OK, "CPU specification: " CASE_FMT, CASE_ARGS);
    if (s != SC_OK) return;
    ASSERT_TRUE(ks == kept, "kept: cpu %zu, cuda %zu; " CASE_FMT, ks, kept, CASE_ARGS);
    if (ks != kept) return;
    size_t d = 0;
    if (order_free) {
        ASSERT_TRUE(same_kept(b, b->spec, n, es, kept, 0),
                    "the CPU specification's output is not the kept elements; " CASE_FMT,
                    CASE_ARGS);
        return;
    }
    while (d < kept && memcmp(b->out + d * es, b->spec + d * es, es) == 0) d++;
    ASSERT_TRUE(d == kept,
                "first difference from the CPU specification at output %zu of %zu; " CASE_FMT, d,
                kept, CASE_ARGS);
}

/* One case: load, poison, run, download, compare with the reference (and the CPU spec). */
static void run_case(sc_context *ctx, sc_context *spec, const sc_algorithm_info *a, buffers *b,
                     const flag_case *c, const char *order_free) {
    size_t n = c->n, es = c->es;
    load(b, c);
    test_fill(b->backend, b->d_out, POISON, n * es + GUARD);
    size_t kept = (size_t)-1;
    sc_status s = call(ctx, a, b, c, &kept);
    checks++;
    ASSERT_STATUS(s, SC_OK, CASE_FMT " (%s)", CASE_ARGS, sc_last_error_detail(ctx));
    if (s != SC_OK) return;
    ASSERT_TRUE(kept == b->want, "kept %zu want %zu: " CASE_FMT, kept, b->want, CASE_ARGS);
    if (kept != b->want) return;
    test_download(b->backend, b->out, b->d_out, n * es + GUARD);
    ASSERT_TRUE(same_kept(b, b->out, n, es, kept, a->stable || c->stable),
                "not the reference's elements: " CASE_FMT, CASE_ARGS);
    ASSERT_TRUE(test_untouched(b->out, kept * es, n * es + GUARD, POISON),
                "wrote past the kept elements: " CASE_FMT, CASE_ARGS);
    check_phases(ctx, a);
    if (spec) check_spec(spec, a, b, c, kept, order_free);
}

/* ---- large streams (CUDA) ---- */

/* Element i carries i in its first 4 bytes, so the output is checked in one pass without a
 * sorted copy: every element is a kept input element, whole, none twice, in increasing order
 * when the algorithm is stable. */
static void fill_indexed(unsigned char *in, size_t n, size_t es) {
    for (size_t i = 0; i < n; i++) {
        unsigned char *e = in + i * es;
        uint64_t h = i * 0x9E3779B97F4A7C15ull + es;
        uint32_t i32 = (uint32_t)i;
        memcpy(e, &i32, 4);
        for (size_t o = 4; o < es; o += 8) {
            uint64_t v = test_rand(&h);
            memcpy(e + o, &v, es - o < 8 ? es - o : 8);
        }
    }
}

static int check_indexed(const sc_algorithm_info *a, const buffers *b, size_t n, size_t es,
                         size_t kept) {
    /* b->ref: one "seen" byte per input element */
    return test_kept_once(b->out, kept, b->in, b->flags, n, es, b->ref, a->stable);
}

/* The large streams' element sizes: --full all of them, else the smallest and the widest of
 * the vector paths (4 and 16) at 2^24 and 4 at 2^27 + 13 (the 32-bit index arithmetic). */
static const size_t large_es[] = {4, 16, 8, 12, 32, 64};
#define LARGE_ES_FULL (sizeof large_es / sizeof large_es[0])
static size_t large_es_count(int full, size_t si) {
    return full ? LARGE_ES_FULL : si == 0 ? 2 : 1;
}

static void test_large(sc_context *ctx, const sc_algorithm_info *a, buffers *b, int full) {
    static const size_t sizes[] = {(size_t)1 << 24, ((size_t)1 << 27) + 13};
    static const test_pattern pats[] = {PAT_RANDOM_50, PAT_RANDOM_98, PAT_ALL_KEPT};
    int mode = 0;
    b->gen_pattern = -1; /* the buffers no longer hold a matrix stream */
    for (size_t si = 0; si < 2; si++)
        for (size_t ei = 0; ei < large_es_count(full, si); ei++) {
            size_t n = sizes[si], es = large_es[ei];
            fill_indexed(b->in, n, es);
            test_upload(b->backend, b->d_in, b->in, n * es);
            for (size_t pi = 0; pi < (si == 0 ? 3u : 1u); pi++) {
                flag_case c = {
                    n, es,        SC_TILE_DEFAULT, pats[pi], SC_SCAN_DEFAULT, SC_RLZ_DEFAULT,
                    0, mode++ % 3};
                test_make_flags(b->flags, n, c.pattern, n + es);
                size_t want = 0;
                for (size_t i = 0; i < n; i++) want += b->flags[i] != 0;
                test_upload(b->backend, b->d_flags, b->flags, n);
                test_fill(b->backend, b->d_out, POISON, n * es + GUARD);
                size_t kept = (size_t)-1;
                sc_status s = call(ctx, a, b, &c, &kept);
                checks++;
                const char *pn = test_pattern_name(c.pattern);
                ASSERT_STATUS(s, SC_OK, "%s n=%zu es=%zu %s", a->name, n, es, pn);
                if (s != SC_OK) continue;
                ASSERT_TRUE(kept == want, "kept %zu want %zu: %s n=%zu es=%zu %s", kept, want,
                            a->name, n, es, pn);
                if (kept != want) continue;
                test_download(b->backend, b->out, b->d_out, n * es + GUARD);
                ASSERT_TRUE(check_indexed(a, b, n, es, kept), "%s n=%zu es=%zu %s", a->name, n, es,
                            pn);
                ASSERT_TRUE(test_untouched(b->out, kept * es, n * es + GUARD, POISON),
                            "wrote past the kept elements: %s n=%zu es=%zu %s", a->name, n, es, pn);
            }
        }
}

/* ---- buffers ---- */

static void alloc_buffers(buffers *b, sc_backend backend, size_t max_n, size_t bytes) {
    memset(b, 0, sizeof *b);
    b->backend = backend;
    b->gen_pattern = -1;
    bytes += GUARD;
    b->in = test_alloc(SC_BACKEND_CPU, bytes);
    b->out = test_alloc(SC_BACKEND_CPU, bytes);
    b->ref = test_alloc(SC_BACKEND_CPU, bytes > max_n ? bytes : max_n);
    b->flags = test_alloc(SC_BACKEND_CPU, max_n + 1);
    b->seen = test_alloc(SC_BACKEND_CPU, max_n + 1);
    if (backend == SC_BACKEND_CPU) { /* the backend reads the host copies */
        b->d_in = b->in;
        b->d_out = b->out;
        b->d_flags = b->flags;
        return;
    }
    b->d_in = test_alloc(backend, bytes);
    b->d_out = test_alloc(backend, bytes);
    b->d_flags = test_alloc(backend, max_n + 1);
    b->d_kept = test_alloc(backend, sizeof *b->d_kept);
#ifdef SC_HAVE_CUDA
    cudaStream_t st;
    CUDA_OK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    b->stream = st;
#endif
}

static void free_buffers(buffers *b) {
    if (b->backend == SC_BACKEND_CUDA) {
        test_free(b->backend, b->d_in);
        test_free(b->backend, b->d_out);
        test_free(b->backend, b->d_flags);
        test_free(b->backend, b->d_kept);
#ifdef SC_HAVE_CUDA
        CUDA_OK(cudaStreamDestroy((cudaStream_t)b->stream));
#endif
    }
    free(b->in);
    free(b->out);
    free(b->ref);
    free(b->spec);
    free(b->flags);
    free(b->seen);
}

/* ---- main ---- */

/* One algorithm on its matrix (and, CUDA unless quick, the large streams); 1 if it passed. */
static int test_algorithm(const test_args *args, sc_context *ctx, sc_context *spec,
                          const sc_algorithm_info *a) {
    int before = test_failures;
    size_t max_n = args->quick ? (size_t)1 << 17 : SIZE_MAX;
    int large = args->backend == SC_BACKEND_CUDA && !args->quick;
    matrix m = build_matrix(a, max_n, args->backend == SC_BACKEND_CUDA, args->quick, args->full);
    size_t top_n = 0, bytes = 0;
    for (size_t i = 0; i < m.count; i++) {
        if (m.c[i].n > top_n) top_n = m.c[i].n;
        if (m.c[i].n * m.c[i].es > bytes) bytes = m.c[i].n * m.c[i].es;
    }
    size_t matrix_bytes = bytes;
    if (large) {
        static const size_t large_n[] = {(size_t)1 << 24, ((size_t)1 << 27) + 13};
        top_n = large_n[1];
        for (size_t si = 0; si < 2; si++)
            for (size_t ei = 0; ei < large_es_count(args->full, si); ei++)
                if (large_n[si] * large_es[ei] > bytes) bytes = large_n[si] * large_es[ei];
    }
    const char *order_free = NULL;
    if (spec && sc_algorithm_available(a->id, SC_BACKEND_CPU)) {
        order_free = test_order_free(a);
        if (order_free)
            printf("%s: compared with the CPU specification as a multiset: %s\n", a->name,
                   order_free);
        else
            printf("%s: compared with the CPU specification byte for byte\n", a->name);
    } else {
        spec = NULL;
    }
    buffers b;
    alloc_buffers(&b, args->backend, top_n, bytes);
    if (spec) b.spec = test_alloc(SC_BACKEND_CPU, matrix_bytes + GUARD);
    for (size_t i = 0; i < m.count; i++) run_case(ctx, spec, a, &b, &m.c[i], order_free);
    if (large) test_large(ctx, a, &b, args->full);
    free_buffers(&b);
    free(m.c);
    printf("%-14s %zu cases %s\n", a->name, m.count, test_failures == before ? "ok" : "FAILED");
    return test_failures == before;
}

int main(int argc, char **argv) {
    test_args args;
    sc_context *ctx = NULL, *spec = NULL;
    int rc = test_start(argc, argv, "test_flagged", SC_INPUT_REMOVAL_LIST,
                        "a flag-stencil algorithm", &args, &ctx, &spec);
    if (rc) return rc;
    int ran = 0;
    const sc_algorithm_info *a;
    for (int i = 0; (a = test_next_algo(&args, SC_INPUT_REMOVAL_LIST, &i)) != NULL; ran++)
        test_algorithm(&args, ctx, spec, a);
    checks++;
    ASSERT_TRUE(ran > 0, "no flag-stencil algorithm on the %s backend",
                test_backend_name(args.backend));
    sc_context_destroy(spec);
    sc_context_destroy(ctx);
    char name[64];
    snprintf(name, sizeof name, "test_flagged --backend %s", test_backend_name(args.backend));
    return test_finish(name, checks);
}
