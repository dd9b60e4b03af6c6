/* scan_scatter.c: the textbook stable compaction. Pass 1: exclusive prefix sum of the flags
 * (Hillis-Steele or Blelloch, sc_options.scan). Pass 2: forall i in parallel: if flags[i],
 * out[scan[i]] = in[i]. */
#include "cpu.h"

sc_status sc_cpu_scan_scatter(sc_job *job) {
    size_t n = job->n;
    size_t p = sc_scan_tmp_elems(n);
    size_t *buf = sc_scratch(job->ctx, (2 * n + p) * sizeof(size_t));
    if (!buf) return SC_ERR_OUT_OF_MEMORY;
    size_t *valid = buf, *pos = buf + n, *tmp = buf + 2 * n;
    double t0 = sc_cpu_now_ms();

    for (size_t i = 0; i < n; i++) valid[i] = job->flags[i] != 0;
    sc_trace_sizes(job, "flags", valid, n);
    size_t kept = sc_cpu_exclusive_scan(job, job->scan, valid, pos, n, tmp, "scan");
    sc_trace_sizes(job, "index", pos, n);
    sc_cpu_phase(job, "scan", &t0);

    const long long nn = (long long)n;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (nn > 65536)
#endif
    for (long long i = 0; i < nn; i++)
        if (job->flags[i])
            sc_copy_elem(sc_elem(job->out, pos[i], job->elem_size),
                         sc_elem_c(job->in, (size_t)i, job->elem_size), job->elem_size);
    sc_cpu_phase(job, "scatter", &t0);
    sc_tracef(job, "kept %zu of %zu", kept, n);
    job->kept = kept;
    return SC_OK;
}
