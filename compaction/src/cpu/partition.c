/* partition.c (CPU): the k-way partition's specification, two ways.
 *   serial:       a counting sort: a histogram of the keys, its exclusive scan gives each
 *                 group's first slot, one walk in input order places every element.
 *   scan-scatter: the data-parallel form the GPU's single pass computes (Blelloch's split,
 *                 generalised from 2 to k groups): for each key j, flags_j[i] = (keys[i] == j)
 *                 and rank_j = the exclusive scan of flags_j; base = the exclusive scan of the
 *                 group totals; forall i in parallel: out[base[key] + rank_key[i]] = in[i].
 * Both are stable, so their outputs are equal byte for byte; the CUDA versions are tested
 * against them. */
#include "cpu.h"

#include <stdio.h>
#include <stdlib.h>

sc_status sc_cpu_partition_serial(sc_job *job) {
    double t0 = sc_cpu_now_ms();
    size_t next[SC_PARTITION_MAX_KEYS] = {0};
    for (size_t i = 0; i < job->n; i++) job->part_counts[job->keys[i]]++;
    for (unsigned j = 1; j < job->num_keys; j++) next[j] = next[j - 1] + job->part_counts[j - 1];
    sc_trace_sizes(job, "counts", job->part_counts, job->num_keys);
    sc_trace_sizes(job, "group base", next, job->num_keys);
    sc_cpu_phase(job, "histogram", &t0);
    for (size_t i = 0; i < job->n; i++)
        sc_copy_elem(sc_elem(job->out, next[job->keys[i]]++, job->elem_size),
                     sc_elem_c(job->in, i, job->elem_size), job->elem_size);
    sc_cpu_phase(job, "scatter", &t0);
    return SC_OK;
}

sc_status sc_cpu_partition_scan(sc_job *job) {
    double t0 = sc_cpu_now_ms();
    const size_t n = job->n, es = job->elem_size;
    /* per key: the flags (as size_t for the scan), their ranks, and the scan's workspace */
    size_t tmp_elems = sc_scan_tmp_elems(n);
    size_t *buf = sc_scratch(job->ctx, (2 * n + tmp_elems + 1) * sizeof *buf);
    if (!buf) return SC_ERR_OUT_OF_MEMORY;
    size_t *flags = buf, *rank = buf + n, *tmp = buf + 2 * n;
    size_t base[SC_PARTITION_MAX_KEYS] = {0};
    /* pass 1: the group totals (each key's scan total), then their exclusive scan */
    for (unsigned j = 0; j < job->num_keys; j++) {
        for (size_t i = 0; i < n; i++) flags[i] = job->keys[i] == j;
        job->part_counts[j] =
            n ? sc_cpu_exclusive_scan(job, job->scan, flags, rank, n, tmp, NULL) : 0;
    }
    for (unsigned j = 1; j < job->num_keys; j++) base[j] = base[j - 1] + job->part_counts[j - 1];
    sc_trace_sizes(job, "counts", job->part_counts, job->num_keys);
    sc_trace_sizes(job, "group base", base, job->num_keys);
    sc_cpu_phase(job, "scan", &t0);
    /* pass 2, per key: rank_j again, and the scatter of the group's elements */
    for (unsigned j = 0; j < job->num_keys; j++) {
        if (job->part_counts[j] == 0) continue;
        for (size_t i = 0; i < n; i++) flags[i] = job->keys[i] == j;
        sc_cpu_exclusive_scan(job, job->scan, flags, rank, n, tmp, NULL);
        if (sc_tracing(job)) {
            char label[32];
            snprintf(label, sizeof label, "rank of key %u", j);
            sc_trace_sizes(job, label, rank, n);
        }
        for (size_t i = 0; i < n; i++)
            if (flags[i])
                sc_copy_elem(sc_elem(job->out, base[j] + rank[i], es), sc_elem_c(job->in, i, es),
                             es);
    }
    sc_cpu_phase(job, "scatter", &t0);
    return SC_OK;
}
