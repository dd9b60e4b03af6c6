/* redzone_block.c: Redzone compaction in one block (Bontes & Gain 2024, Alg. 1): remove the k
 * listed elements of A in place in O(k) time, unstable, with the whole list handled by threads
 * that share low-latency memory (one GPU block; here, one loop).
 *
 * Phase 1 ("mark") marks the removed slots of the red zone Z = A[z .. n), z = n - k. Phase 2
 * ("pair") walks the whole list once: R[i] meets the source A[z + i]; a hole below z meeting a
 * survivor is filled at once, the mismatches are kept as orphans with one running count each
 * (Z' for survivors, R' for holes). Phase 3 ("orphans") pairs Z'[i] with R'[i] directly: with a
 * single block both lists are global, and |Z'| = |R'| (Lemma 4.2, §4.5), so no load balancing
 * is needed, unlike Alg. 2 (redzone.c).
 *
 * Marks and orphans live in context scratch, one sc_scratch call, for the reasons given at the
 * top of redzone.c: a bit map of k bits over Z (our elements have no spare bit to mark), and
 * floor(k/2) red-zone indices and floor(k/2) destination indices for Z' and R' (the list is
 * read-only). Floor(k/2) suffices: every pair is at most one orphan and |Z'| = |R'|, so
 * 2|Z'| <= k (§6: "2(1/2)k fast memory"). */
#include "cpu.h"

/* Phase 3 (Alg. 1 lines 16-17): forall i < j in parallel: A'[R'[i]] <- Z'[i]. */
static void pair_orphans(const sc_job *job, const uint32_t *zo, const uint32_t *ro, size_t j) {
    const size_t es = job->elem_size;
    sc_tracef(job, "orphans: A'[R'[i]] <- Z'[i] for i < %zu (Alg. 1 lines 16-17)", j);
    for (size_t i = 0; i < j; i++) {
        sc_copy_elem(sc_elem(job->data, ro[i], es), sc_elem_c(job->data, zo[i], es), es);
        if (sc_tracing(job) && i < 64) sc_tracef(job, "move %u -> %u", zo[i], ro[i]);
    }
    if (sc_tracing(job) && j > 64) sc_tracef(job, "(moves from i = 64 on not shown)");
}

sc_status sc_cpu_redzone_block(sc_job *job) {
    const size_t n = job->n, k = job->k;
    job->kept = n - k;
    if (k == 0 || k == n) { /* line 1: nothing to move */
        sc_tracef(job, "k = %zu of n = %zu: nothing to move, kept %zu", k, n, n - k);
        return SC_OK;
    }
    const size_t words = (k + 63) / 64, half = k / 2;
    /* one block: marks | Z' | R' */
    uint64_t *marks = sc_scratch(job->ctx, words * 8 + 2 * half * sizeof(uint32_t));
    if (!marks) return SC_ERR_OUT_OF_MEMORY;
    uint32_t *zo = (uint32_t *)(marks + words), *ro = zo + half;
    double t0 = sc_cpu_now_ms();

    sc_cpu_redzone_mark(job, marks); /* lines 2-4 */
    sc_cpu_phase(job, "mark", &t0);

    size_t j = 0, kk = 0; /* lines 5-15: one block walks the whole list */
    sc_cpu_redzone_pair(job, marks, 0, k, zo, ro, &j, &kk);
    sc_cpu_phase(job, "pair", &t0);
    sc_tracef(job, "pair: R[i] with A[z+i] for i < %zu, one block (Alg. 1 lines 5-15)", k);
    sc_cpu_redzone_trace_pair(job, marks, 0, k, zo, ro, j, kk);

    t0 = sc_cpu_now_ms();
    pair_orphans(job, zo, ro, j);
    sc_cpu_phase(job, "orphans", &t0);
    sc_tracef(job, "kept %zu of %zu", n - k, n);
    return SC_OK;
}
