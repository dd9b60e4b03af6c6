/* redzone.c: Redzone compaction for many blocks (Bontes & Gain 2024, Alg. 2 and 3): remove the
 * k listed elements of A in place in O(k) time. Unstable.
 *
 * The red zone Z = A[z .. n), z = n - k, has one slot per removal. Every removed index r < z is
 * a hole that a survivor of Z must fill, and there are as many holes as survivors (Lemma 4.1,
 * §4.5). Phase 1 ("mark") marks the removed slots of Z. Phase 2 ("pair") pairs R[i] with the
 * source A[z + i], batch by batch (Table 1): a hole meeting a survivor is filled at once, a hole
 * meeting a removed slot becomes a destination orphan (R'), a survivor meeting a removed index
 * becomes a source orphan (Z'). Phase 3 ("orphans") pairs Z' with R' across the batches with the
 * load balancer of Alg. 3; |Z'| = |R'| in aggregate (Lemma 4.2), not per batch.
 *
 * Marks. The paper marks A[r] itself, in a spare state bit of the element (§4). Our elements are
 * opaque bytes with no spare bit, so phase 1 sets bit r - z of a bit map over the red zone
 * instead: k bits (k/8 bytes) of context scratch. Cost: the map is cleared at the start of every
 * call, one extra sequential pass over k/8 bytes (1/32 of the list's own 4k bytes); phase 1's
 * scattered writes land in that small map rather than in k * elem_size bytes of A; phase 2 reads
 * one bit per pair, in order. A is not written until phase 2.
 *
 * Orphans. The paper keeps Z' in place in Z and R' in place in R (§4.3). Our R is the caller's
 * read-only list, so R' lives in scratch; Z' holds red-zone indices, also in scratch, so an orphan
 * of any element size is copied once (in phase 3) and phase 2 needs no barrier between reading
 * pair i and writing orphan j <= i (§4.4: none is needed when the orphan lists have storage of
 * their own). As the in-place lists would, each batch keeps its orphans in its own segment of
 * each list (batch p at [p*s, p*s + b_p)), which is where Alg. 3 looks for them. Scratch, one
 * sc_scratch call: k/8 bytes of marks + 2 * 4k bytes of orphans + O(|P|) batch counts.
 *
 * Phase 1 and phase 2 for one batch are shared with Alg. 1 (redzone_block.c). */
#include "cpu.h"

#include <stdio.h>

/* Alg. 2 line 0 sets the batch size s = ceil(|R| / |P|) from the processor count. The result
 * must not depend on the thread count here, so |P| follows from s instead: s = ceil(sqrt(k)),
 * at most 1024 (a GPU block of 1024 threads, one pair per thread). Both the batch count and the
 * batch size grow with k, and the trace of a small stream shows several batches. */
#define RZ_MAX_BATCH 1024u
/* Traces show the first RZ_TRACE_MAX pairs, moves and batches. */
#define RZ_TRACE_MAX 64u

static size_t batch_size(size_t k) {
    size_t s = 1;
    while (s < RZ_MAX_BATCH && s * s < k) s++;
    return s;
}

static int is_marked(const uint64_t *marks, size_t i) {
    return (int)((marks[i / 64] >> (i % 64)) & 1u);
}

/* Table 1: A = fill the hole, B = both removed, C = hole orphan (R'), D = survivor orphan (Z'). */
static char pair_case(uint32_t r, size_t z, int deleted) {
    if (r >= z) return deleted ? 'B' : 'D';
    return deleted ? 'C' : 'A';
}

static void trace_row(const sc_job *job, const char *label, const uint32_t *v, size_t n) {
    if (n)
        sc_trace_u32(job, label, v, n);
    else
        sc_tracef(job, "%-12s: -", label);
}

/* The Table 1 case phase 2 will meet at every pair, known once phase 1 has run. */
static void trace_cases(const sc_job *job, size_t z, const uint64_t *marks) {
    char line[16 + 4 * RZ_TRACE_MAX + 8];
    size_t pos = (size_t)snprintf(line, sizeof line, "%-12s:", "case");
    for (size_t i = 0; i < job->k && i < RZ_TRACE_MAX; i++)
        pos += (size_t)snprintf(line + pos, sizeof line - pos, "   %c",
                                pair_case(job->removed[i], z, is_marked(marks, i)));
    if (job->k > RZ_TRACE_MAX) snprintf(line + pos, sizeof line - pos, " ...");
    sc_tracef(job, "%s", line);
    sc_tracef(job, "A: fill the hole, B: both removed, C: hole -> R', D: survivor -> Z' (Table 1)");
}

/* Phase 1's picture: the list, the red zone and its marks, the holes below z (R_v) and the
 * survivors in Z (Z_v). Rows keep one value past RZ_TRACE_MAX, so the printer marks them "...". */
static void trace_zone(const sc_job *job, size_t z, const uint64_t *marks) {
    if (!sc_tracing(job)) return;
    enum { W = RZ_TRACE_MAX + 1 };
    const size_t k = job->k;
    uint32_t slot[W], dead[W], hole[W], live[W];
    size_t holes = 0, lives = 0;
    for (size_t i = 0; i < k; i++) {
        uint32_t r = job->removed[i];
        if (i < W) {
            slot[i] = (uint32_t)(z + i);
            dead[i] = (uint32_t)is_marked(marks, i);
        }
        if (r < z && holes++ < W) hole[holes - 1] = r;
        if (!is_marked(marks, i) && lives++ < W) live[lives - 1] = (uint32_t)(z + i);
    }
    sc_tracef(job,
              "mark: z = n - k = %zu - %zu = %zu, red zone Z = A[%zu .. %zu) (Alg. 1 lines 2-4)",
              job->n, k, z, z, job->n);
    sc_trace_u32(job, "R", job->removed, k);
    sc_trace_u32(job, "Z slot z+i", slot, k < W ? k : W);
    sc_trace_u32(job, "deleted", dead, k < W ? k : W);
    trace_row(job, "holes < z", hole, holes < W ? holes : W);
    trace_row(job, "Z survivors", live, lives < W ? lives : W);
    sc_tracef(job, "%zu holes below z, %zu survivors in Z (Lemma 4.1: |R_v| = |Z_v|)", holes,
              lives);
    trace_cases(job, z, marks);
}

/* Phase 1 (Alg. 1 lines 3-4; unchanged in Alg. 2): forall r in R in parallel: if r >= z, mark
 * red-zone slot r - z as deleted. `marks` holds (k + 63) / 64 words; cleared here. */
void sc_cpu_redzone_mark(const sc_job *job, uint64_t *marks) {
    const size_t k = job->k, z = job->n - k;
    memset(marks, 0, (k + 63) / 64 * sizeof *marks);
    const long long kk = (long long)k;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (kk > 65536)
#endif
    for (long long i = 0; i < kk; i++) {
        uint32_t r = job->removed[i];
        if (r < z) continue;
        size_t b = r - z;
#ifdef _OPENMP
#pragma omp atomic
#endif
        marks[b / 64] |= (uint64_t)1 << (b % 64);
    }
    trace_zone(job, z, marks);
}

/* Phase 2 for one batch (Alg. 1 lines 5-15; Alg. 2 lines 5-15 for block p): pair R[i] with the
 * source A[z + i] for i in [from, to). Orphans go to the batch's own segments zo[from ..) and
 * ro[from ..); *j_out and *k_out receive their counts (j_p and k_p). */
void sc_cpu_redzone_pair(const sc_job *job, const uint64_t *marks, size_t from, size_t to,
                         uint32_t *zo, uint32_t *ro, size_t *j_out, size_t *k_out) {
    const size_t z = job->n - job->k, es = job->elem_size;
    size_t j = 0, k = 0;
    for (size_t i = from; i < to; i++) {
        uint32_t r = job->removed[i]; /* line 6: a <- A[z + i]; r <- R[i] */
        int deleted = is_marked(marks, i);
        if (r >= z && deleted) {
            continue; /* line 7: r in Z and a removed: discard both */
        } else if (r >= z) {
            /* lines 9-10: keep orphaned a. j <- PrefixSumToIndex(i): one thread walks the batch,
             * so the exclusive prefix sum of the D cases is a running count. */
            zo[from + j++] = (uint32_t)(z + i);
        } else if (deleted) {
            ro[from + k++] = r; /* lines 12-13: keep orphaned r */
        } else {
            /* line 15: A'[r] <- a. r < z <= z + i: the copy never overlaps, and no source in Z
             * is overwritten, as every write lands below z. */
            sc_copy_elem(sc_elem(job->data, r, es), sc_elem_c(job->data, z + i, es), es);
        }
    }
    *j_out = j;
    *k_out = k;
}

/* Trace one batch of phase 2 after it ran: its case-A moves and its orphan lists. */
void sc_cpu_redzone_trace_pair(const sc_job *job, const uint64_t *marks, size_t from, size_t to,
                               const uint32_t *zo, const uint32_t *ro, size_t j, size_t k) {
    if (!sc_tracing(job)) return;
    const size_t z = job->n - job->k;
    for (size_t i = from; i < to && i < RZ_TRACE_MAX; i++)
        if (pair_case(job->removed[i], z, is_marked(marks, i)) == 'A')
            sc_tracef(job, "move %zu -> %u", z + i, job->removed[i]);
    if (to > RZ_TRACE_MAX) sc_tracef(job, "(moves of pairs from %u on not shown)", RZ_TRACE_MAX);
    trace_row(job, "Z'", zo + from, j);
    trace_row(job, "R'", ro + from, k);
}

/* Alg. 3 (load balancing): the address of orphan number t in a list kept per batch (batch p's
 * orphans at [p*s, p*s + count_p)), with S the exclusive prefix sum of the counts and
 * S[|P|] = their total. Line 1: no batch holds more than s orphans, so t's batch is at least
 * t / s. `cursor` carries the batch found for an earlier t of the same thread: orphan numbers
 * rise with t and so do their batches, which moves the search out of loop 18 (§4.1, last
 * paragraph). Line 2 never fires: the caller loops over t < S[|P|] only. */
static size_t load_balance(const size_t *S, size_t t, size_t s, size_t *cursor) {
    size_t p = t / s;
    if (*cursor != SIZE_MAX && *cursor > p) p = *cursor;
    while (t >= S[p + 1]) p++; /* lines 3-6: the batch whose range [S[p], S[p+1]) holds t */
    *cursor = p;
    return p * s + (t - S[p]); /* lines 7-8: Index * b + SubIndex */
}

typedef struct rz_batches {
    size_t s, count;   /* batch size s and batch count |P| */
    size_t *jc, *kc;   /* j_p, k_p: source and destination orphans of batch p */
    size_t *J, *K;     /* their exclusive prefix sums, |P| + 1 entries */
    uint32_t *zo, *ro; /* Z' and R', segmented per batch, k entries each */
    size_t *tmp;       /* scan temporary */
    uint64_t *marks;   /* phase 1's bit map, (k + 63) / 64 words */
} rz_batches;

static sc_status carve(const sc_job *job, rz_batches *b) {
    const size_t k = job->k, words = (k + 63) / 64;
    b->s = batch_size(k);
    b->count = (k + b->s - 1) / b->s;
    const size_t tmpn = sc_scan_tmp_elems(b->count);
    const size_t sizes = 2 * b->count + 2 * (b->count + 1) + tmpn;
    /* one block: marks | j_p | k_p | J | K | scan tmp | Z' | R' */
    b->marks = sc_scratch(job->ctx, words * 8 + sizes * sizeof(size_t) + 2 * k * sizeof(uint32_t));
    if (!b->marks) return SC_ERR_OUT_OF_MEMORY;
    b->jc = (size_t *)(b->marks + words);
    b->kc = b->jc + b->count;
    b->J = b->kc + b->count;
    b->K = b->J + b->count + 1;
    b->tmp = b->K + b->count + 1;
    b->zo = (uint32_t *)(b->tmp + tmpn);
    b->ro = b->zo + k;
    return SC_OK;
}

/* Phase 2 (Alg. 2 lines 5-15): forall blocks p in parallel: block p pairs its own slice
 * [p*s, p*s + b_p) of R and Z; the last block takes the remainder (line 0). */
static void pair_batches(const sc_job *job, const rz_batches *b) {
    const size_t k = job->k, s = b->s;
    const long long np = (long long)b->count;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (np > 16 && k > 65536)
#endif
    for (long long p = 0; p < np; p++) {
        size_t from = (size_t)p * s, to = from + s < k ? from + s : k;
        sc_cpu_redzone_pair(job, b->marks, from, to, b->zo, b->ro, &b->jc[p], &b->kc[p]);
    }
}

static void trace_batches(const sc_job *job, const rz_batches *b) {
    if (!sc_tracing(job)) return;
    sc_tracef(job, "pair: R[i] with A[z+i] in %zu batches of s = %zu (Alg. 2 lines 5-15)", b->count,
              b->s);
    for (size_t p = 0; p < b->count && p * b->s < RZ_TRACE_MAX; p++) {
        size_t from = p * b->s, to = from + b->s < job->k ? from + b->s : job->k;
        sc_tracef(job,
                  "batch %zu: pairs [%zu, %zu), j_%zu = %zu source and k_%zu = %zu destination "
                  "orphans",
                  p, from, to, p, b->jc[p], p, b->kc[p]);
        sc_cpu_redzone_trace_pair(job, b->marks, from, to, b->zo, b->ro, b->jc[p], b->kc[p]);
    }
    size_t shown = (RZ_TRACE_MAX + b->s - 1) / b->s;
    if (b->count > shown) sc_tracef(job, "(batches %zu .. %zu not shown)", shown, b->count - 1);
}

/* Phase 3 (Alg. 2 lines 16-22): forall t < |Z'| in parallel: A'[R'[x]] <- Z'[y], where y and x
 * are the addresses of orphan number t in Z' and in R' (Alg. 3). The paper's runs c of |P|
 * threads (lines 16, 18, 22) flatten into one loop over t. */
static void pair_orphans(const sc_job *job, const rz_batches *b, size_t total) {
    const size_t es = job->elem_size;
    const long long nt = (long long)total;
#ifdef _OPENMP
#pragma omp parallel if (nt > 65536 && !job->opt.trace)
#endif
    {
        size_t cy = SIZE_MAX, cx = SIZE_MAX;
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
        for (long long t = 0; t < nt; t++) {
            size_t y = load_balance(b->J, (size_t)t, b->s, &cy); /* line 19: source */
            size_t x = load_balance(b->K, (size_t)t, b->s, &cx); /* line 20: destination */
            sc_copy_elem(sc_elem(job->data, b->ro[x], es), sc_elem_c(job->data, b->zo[y], es),
                         es); /* line 21 */
            if (sc_tracing(job) && t < RZ_TRACE_MAX)
                sc_tracef(job,
                          "t=%lld: Z'[%zu] (batch %zu) with R'[%zu] (batch %zu): move %u -> %u", t,
                          y, y / b->s, x, x / b->s, b->zo[y], b->ro[x]);
        }
    }
    if (sc_tracing(job) && total > RZ_TRACE_MAX)
        sc_tracef(job, "(pairs from t = %u on not shown)", RZ_TRACE_MAX);
}

/* Line 17: J <- PrefixSum(j_p); K <- PrefixSum(k_p), computed once here rather than once per
 * block. Returns |Z'|, which equals |R'| (Lemma 4.2). */
static size_t orphan_offsets(const sc_job *job, rz_batches *b) {
    const size_t P = b->count;
    b->J[P] = sc_cpu_exclusive_scan(job, SC_SCAN_BLELLOCH, b->jc, b->J, P, b->tmp, NULL);
    b->K[P] = sc_cpu_exclusive_scan(job, SC_SCAN_BLELLOCH, b->kc, b->K, P, b->tmp, NULL);
    if (sc_tracing(job)) {
        sc_tracef(job, "orphans: pair Z' with R' across batches (Alg. 2 lines 16-22, Alg. 3)");
        sc_trace_sizes(job, "j_p", b->jc, P);
        sc_trace_sizes(job, "k_p", b->kc, P);
        sc_trace_sizes(job, "J", b->J, P + 1);
        sc_trace_sizes(job, "K", b->K, P + 1);
        sc_tracef(job, "|Z'| = %zu, |R'| = %zu (Lemma 4.2: equal in aggregate)", b->J[P], b->K[P]);
    }
    return b->J[P];
}

sc_status sc_cpu_redzone(sc_job *job) {
    const size_t n = job->n, k = job->k;
    job->kept = n - k;
    if (k == 0 || k == n) { /* Alg. 1 line 1, unchanged in Alg. 2 */
        sc_tracef(job, "k = %zu of n = %zu: nothing to move, kept %zu", k, n, n - k);
        return SC_OK;
    }
    rz_batches b;
    sc_status s = carve(job, &b);
    if (s != SC_OK) return s;
    double t0 = sc_cpu_now_ms();

    sc_cpu_redzone_mark(job, b.marks);
    sc_cpu_phase(job, "mark", &t0);

    pair_batches(job, &b);
    sc_cpu_phase(job, "pair", &t0);
    trace_batches(job, &b);

    t0 = sc_cpu_now_ms();
    pair_orphans(job, &b, orphan_offsets(job, &b));
    sc_cpu_phase(job, "orphans", &t0);
    sc_tracef(job, "kept %zu of %zu", n - k, n);
    return SC_OK;
}
