/* bench_partition.h: `compact bench --partition K`: times the k-way stable partition
 * (sc_partition) of every algorithm the backend has against the flagged compaction of the same
 * n in the same run (bench_partition.c: options, inputs, the check, the table;
 * bench_partition_gpu.cu: the CUDA timing). */
#ifndef SC_BENCH_PARTITION_H
#define SC_BENCH_PARTITION_H

#include "raycompact/compaction.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What one timed configuration runs. */
typedef enum bench_part_kind {
    BENCH_PART_PARTITION, /* sc_partition(algo) into num_keys keys */
    BENCH_PART_COMPACT    /* sc_compact_flagged(algo) of the same n, flags given */
} bench_part_kind;

typedef struct bench_part_case {
    bench_part_kind kind;
    sc_algorithm algo;
    size_t n, elem_size;
    unsigned num_keys;
    int runs, warmup;
    /* host inputs: `sets` copies of each are rotated, so no run finds its input in cache */
    const unsigned char *in;
    const uint8_t *keys;  /* partition: n keys < num_keys */
    const uint8_t *flags; /* compact: n flags */
} bench_part_case;

typedef struct bench_part_result {
    double median_ms, min_ms, max_ms;
    unsigned char *out; /* the first run's output on the host (n * elem_size), for the check */
    size_t counts[SC_PARTITION_MAX_KEYS]; /* partition: per key; compact: counts[0] = kept */
} bench_part_result;

/* Runs warmup + runs calls of the case on the backend, each on the next of `sets` input copies,
 * and fills `r` (r->out is allocated with malloc, n * elem_size bytes). 0, or -1 with `why`. */
int bench_part_time_cpu(const bench_part_case *c, int sets, bench_part_result *r, char *why,
                        size_t cap);
#ifdef SC_HAVE_CUDA
int bench_part_time_cuda(const bench_part_case *c, int sets, bench_part_result *r, char *why,
                         size_t cap);
/* The device's last-level cache in bytes (0 if unknown) and its name. */
size_t bench_part_cuda_cache(char *name, size_t cap);
#endif

/* Parse the options of `compact bench --partition K ...` only (argv without "bench"): 0 when
 * they are valid, 1 after --help, -1 after a usage error (printed). */
int bench_partition_check_args(int argc, char **argv);
/* `compact bench --partition K ...`; returns the exit status. */
int bench_partition_cmd(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif /* SC_BENCH_PARTITION_H */
