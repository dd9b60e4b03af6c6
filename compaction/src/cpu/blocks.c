/* blocks.c: the block-based framework (JJ paper §3.4, Fig. 6 and 8, after Roger et al. 2007;
 * Moreira 2009 §3): compact every tile on its own, scan the tile counts, concatenate. */
#include "cpu.h"

#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

sc_status sc_cpu_blocks_run(sc_job *job, sc_tile_fn tile_fn, size_t scratch_bytes) {
    const size_t n = job->n, s = job->tile;
    const size_t tiles = (n + s - 1) / s;
    const size_t p = sc_scan_tmp_elems(tiles);
    scratch_bytes = (scratch_bytes + 15) & ~(size_t)15;
#ifdef _OPENMP
    const int workers = omp_get_max_threads();
#else
    const int workers = 1;
#endif
    /* layout: src[n] (uint32 gather maps) | counts[tiles] | offsets[tiles] | tmp[p] |
     * per-worker tile scratch */
    size_t src_bytes = ((n * sizeof(uint32_t)) + 15) & ~(size_t)15;
    size_t meta_bytes = (2 * tiles + p) * sizeof(size_t);
    unsigned char *buf =
        sc_scratch(job->ctx, src_bytes + meta_bytes + (size_t)workers * scratch_bytes + 16);
    if (!buf) return SC_ERR_OUT_OF_MEMORY;
    uint32_t *src = (uint32_t *)buf;
    size_t *counts = (size_t *)(buf + src_bytes);
    size_t *offsets = counts + tiles, *tmp = offsets + tiles;
    unsigned char *tile_scratch = (unsigned char *)(tmp + p);
    double t0 = sc_cpu_now_ms();

    /* Pass 1: forall tiles in parallel: compact the tile into its local gather map. */
    const long long nt = (long long)tiles;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (nt > 64 && !job->opt.trace)
#endif
    for (long long t = 0; t < nt; t++) {
#ifdef _OPENMP
        unsigned char *mine = tile_scratch + (size_t)omp_get_thread_num() * scratch_bytes;
#else
        unsigned char *mine = tile_scratch;
#endif
        size_t base = (size_t)t * s, m = n - base < s ? n - base : s;
        if (sc_tracing(job)) sc_tracef(job, "-- tile %lld: elements [%zu, %zu)", t, base, base + m);
        counts[t] = tile_fn(job, (size_t)t, job->flags + base, m, src + base, mine);
    }
    t0 = sc_cpu_now_ms();

    /* Pass 2: exclusive scan of the tile counts gives each tile's output offset. */
    size_t kept = sc_cpu_exclusive_scan(job, job->scan, counts, offsets, tiles, tmp, NULL);
    if (tiles > 1) {
        sc_trace_sizes(job, "tile counts", counts, tiles);
        sc_trace_sizes(job, "tile offsets", offsets, tiles);
    }
    sc_cpu_phase(job, "tile scan", &t0);

    /* Pass 3: forall tiles in parallel: concatenate the compacted tiles. */
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (nt > 64)
#endif
    for (long long t = 0; t < nt; t++) {
        size_t base = (size_t)t * s;
        for (size_t j = 0; j < counts[t]; j++)
            sc_copy_elem(sc_elem(job->out, offsets[t] + j, job->elem_size),
                         sc_elem_c(job->in, base + src[base + j], job->elem_size), job->elem_size);
    }
    sc_cpu_phase(job, "concatenate", &t0);
    sc_tracef(job, "kept %zu of %zu", kept, n);
    job->kept = kept;
    return SC_OK;
}
