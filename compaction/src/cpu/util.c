/* util.c: phase clocks and the trace printer shared by the CPU algorithm files. */
#define _POSIX_C_SOURCE 199309L
#include "cpu.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

double sc_cpu_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

void sc_cpu_phase(sc_job *job, const char *name, double *t0) {
    if (!job->opt.timing) return;
    double t1 = sc_cpu_now_ms();
    sc_timing_add(job->ctx, name, t1 - *t0);
    *t0 = t1;
}

void sc_cpu_phase_add(const sc_job *job, const char *name, double ms) {
    if (!job->opt.timing) return;
#ifdef _OPENMP
#pragma omp critical(sc_timing)
#endif
    sc_timing_add(job->ctx, name, ms);
}

int sc_tracing(const sc_job *job) {
    return job->opt.trace != NULL;
}

void sc_tracef(const sc_job *job, const char *fmt, ...) {
    if (!job->opt.trace) return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    job->opt.trace(job->opt.trace_user, line);
}

/* Arrays longer than this are printed as their first TRACE_MAX values and "...". */
#define TRACE_MAX 64

typedef unsigned long long (*value_at)(const void *a, size_t i);
static unsigned long long at_size(const void *a, size_t i) {
    return ((const size_t *)a)[i];
}
static unsigned long long at_u32(const void *a, size_t i) {
    return ((const uint32_t *)a)[i];
}
static unsigned long long at_u8(const void *a, size_t i) {
    return ((const uint8_t *)a)[i] != 0;
}

static void trace_array(const sc_job *job, const char *label, const void *a, size_t n,
                        value_at get) {
    if (!job->opt.trace) return;
    char line[1024];
    size_t pos = (size_t)snprintf(line, sizeof line, "%-12s:", label);
    for (size_t i = 0; i < n && i < TRACE_MAX && pos < sizeof line - 32; i++)
        pos += (size_t)snprintf(line + pos, sizeof line - pos, " %3llu", get(a, i));
    if (n > TRACE_MAX && pos < sizeof line - 8) snprintf(line + pos, sizeof line - pos, " ...");
    job->opt.trace(job->opt.trace_user, line);
}

void sc_trace_sizes(const sc_job *job, const char *label, const size_t *a, size_t n) {
    trace_array(job, label, a, n, at_size);
}
void sc_trace_u32(const sc_job *job, const char *label, const uint32_t *a, size_t n) {
    trace_array(job, label, a, n, at_u32);
}
void sc_trace_flags(const sc_job *job, const char *label, const uint8_t *flags, size_t n) {
    trace_array(job, label, flags, n, at_u8);
}

void sc_trace_lanes(const sc_job *job, const char *label, uint32_t ballot, size_t lanes,
                    size_t base) {
    if (!job->opt.trace) return;
    char line[512];
    size_t pos = (size_t)snprintf(line, sizeof line, "%-12s:", label);
    for (size_t l = 0; l < lanes && pos < sizeof line - 24; l++) {
        if ((ballot >> l) & 1u)
            pos += (size_t)snprintf(line + pos, sizeof line - pos, " %3zu",
                                    base + sc_popc32(ballot & sc_lanemask_lt(l)));
        else
            pos += (size_t)snprintf(line + pos, sizeof line - pos, "   .");
    }
    job->opt.trace(job->opt.trace_user, line);
}
