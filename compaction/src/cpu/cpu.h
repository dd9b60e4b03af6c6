/* cpu.h: helpers the CPU algorithm files share: element copy, scans, tracing, phase clocks,
 * and the block-based framework. Each algorithm file holds only its own idea. */
#ifndef SC_CPU_H
#define SC_CPU_H

#include "../internal.h"

#include <string.h>

/* Copy one element; fast paths for the common sizes. */
static inline void sc_copy_elem(void *dst, const void *src, size_t elem_size) {
    switch (elem_size) {
    case 4:
        memcpy(dst, src, 4);
        break;
    case 8:
        memcpy(dst, src, 8);
        break;
    case 16:
        memcpy(dst, src, 16);
        break;
    default:
        memcpy(dst, src, elem_size);
        break;
    }
}

static inline const unsigned char *sc_elem_c(const void *base, size_t i, size_t elem_size) {
    return (const unsigned char *)base + i * elem_size;
}
static inline unsigned char *sc_elem(void *base, size_t i, size_t elem_size) {
    return (unsigned char *)base + i * elem_size;
}

/* ---- warps as 32-lane groups (the GPU vocabulary the CPU specification is written in) ---- */
#define SC_WARP 32

/* __popc */
static inline uint32_t sc_popc32(uint32_t x) {
#if defined(__GNUC__)
    return (uint32_t)__builtin_popcount(x);
#else
    uint32_t c = 0;
    for (; x; x &= x - 1) c++;
    return c;
#endif
}

/* %lanemask_lt: the bits of the lanes below `lane`. */
static inline uint32_t sc_lanemask_lt(size_t lane) {
    return ((uint32_t)1 << lane) - 1u;
}

/* __ballot_sync(full mask, flag != 0) over `lanes` active lanes; inactive lanes vote 0. */
static inline uint32_t sc_warp_ballot(const uint8_t *flags, size_t lanes) {
    uint32_t b = 0;
    for (size_t l = 0; l < lanes; l++) b |= (uint32_t)(flags[l] != 0) << l;
    return b;
}

/* One trace line, one column per lane: base + popc(ballot & lanemask_lt) on valid lanes,
 * "." on the others. */
void sc_trace_lanes(const sc_job *job, const char *label, uint32_t ballot, size_t lanes,
                    size_t base);

/* ---- phase clock (monotonic, milliseconds) ---- */
double sc_cpu_now_ms(void);
/* Record the time since *t0 under `name` (when opt.timing is on) and restart *t0. */
void sc_cpu_phase(sc_job *job, const char *name, double *t0);

/* ---- tracing: every function is a no-op when job->opt.trace is NULL ---- */
int sc_tracing(const sc_job *job);
void sc_tracef(const sc_job *job, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* One line "label : v0 v1 v2 ..." (long arrays are shortened with "..."). */
void sc_trace_sizes(const sc_job *job, const char *label, const size_t *a, size_t n);
void sc_trace_u32(const sc_job *job, const char *label, const uint32_t *a, size_t n);
void sc_trace_flags(const sc_job *job, const char *label, const uint8_t *flags, size_t n);

/* ---- exclusive prefix sums, written as the papers' passes (scan.c) ----
 * out[i] = sum of in[0..i). `tmp` holds at least scan_tmp_elems(n) size_t. Returns the total.
 * Hillis-Steele: log2(n) rounds of out[i] += out[i - 2^d] (double-buffered, O(n log n) work).
 * Blelloch: up-sweep then down-sweep over the next power of two (O(n) work).
 * `trace_label` (may be NULL) names the rounds in the trace. */
size_t sc_scan_tmp_elems(size_t n);
size_t sc_cpu_exclusive_scan(const sc_job *job, sc_scan variant, const size_t *in, size_t *out,
                             size_t n, size_t *tmp, const char *trace_label);

/* ---- block-based framework (JJ paper §3.4, Fig. 6 and 8, after Roger et al.) ----
 * Pass 1 (forall tiles in parallel): `tile_fn` compacts tile t alone. It fills a local
 * gather map src[0..count) (output j of the tile takes tile element src[j]) and returns count.
 * Pass 2: exclusive scan of the tile counts (job->scan) gives each tile's output offset.
 * Pass 3 (forall tiles in parallel): concatenate: out[offset_t + j] = in[base_t + src_t[j]].
 * `scratch` gives tile_fn `scratch_bytes` of its own per tile (thread-private).
 * The intra-tile phase timings are recorded by tile_fn through sc_cpu_phase_add. */
typedef size_t (*sc_tile_fn)(const sc_job *job, size_t t, const uint8_t *flags, size_t m,
                             uint32_t *src, void *scratch);
sc_status sc_cpu_blocks_run(sc_job *job, sc_tile_fn tile_fn, size_t scratch_bytes);
/* Thread-safe accumulation of a phase time measured inside a tile. */
void sc_cpu_phase_add(const sc_job *job, const char *name, double ms);

/* ---- Redzone (Bontes & Gain 2024), shared by redzone.c (Alg. 2) and redzone_block.c (Alg. 1)
 * mark: phase 1 (Alg. 1 lines 3-4): set bit r - z of `marks` ((k+63)/64 words, cleared here)
 * for every r >= z. pair: phase 2 for pairs [from, to): orphans to zo[from..) / ro[from..),
 * counts to *j_out / *k_out. trace_pair: that batch's moves and orphan lists, when tracing. */
void sc_cpu_redzone_mark(const sc_job *job, uint64_t *marks);
void sc_cpu_redzone_pair(const sc_job *job, const uint64_t *marks, size_t from, size_t to,
                         uint32_t *zo, uint32_t *ro, size_t *j_out, size_t *k_out);
void sc_cpu_redzone_trace_pair(const sc_job *job, const uint64_t *marks, size_t from, size_t to,
                               const uint32_t *zo, const uint32_t *ro, size_t j, size_t k);

#endif /* SC_CPU_H */
