/* serial.c: the reference. One thread walks the stream once and copies each kept element.
 * Every other algorithm is tested against this one. */
#include "cpu.h"

sc_status sc_cpu_serial(sc_job *job) {
    double t0 = sc_cpu_now_ms();
    size_t kept = 0;
    for (size_t i = 0; i < job->n; i++) {
        if (job->flags[i]) {
            sc_copy_elem(sc_elem(job->out, kept, job->elem_size),
                         sc_elem_c(job->in, i, job->elem_size), job->elem_size);
            kept++;
        }
    }
    sc_trace_flags(job, "flags", job->flags, job->n);
    sc_tracef(job, "kept %zu of %zu", kept, job->n);
    sc_cpu_phase(job, "copy", &t0);
    job->kept = kept;
    return SC_OK;
}
