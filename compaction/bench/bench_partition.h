/* bench_partition.h: `compact bench --partition K` (bench_partition.c): the stable K-way
 * partition (sc_partition) of every algorithm the backend has against the flagged compaction of
 * the same n, on the backends and the timing loop of bench.h. */
#ifndef SC_BENCH_PARTITION_H
#define SC_BENCH_PARTITION_H

#include "bench.h"

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
    const unsigned char *in; /* the host input, for the check */
    const uint8_t *keys;     /* partition: n keys < num_keys */
    const uint8_t *flags;    /* compact: n flags */
} bench_part_case;

typedef struct bench_part_result {
    double median_ms, min_ms, max_ms;
    unsigned char *out;                   /* the checked run's output on the host (n * elem_size) */
    size_t counts[SC_PARTITION_MAX_KEYS]; /* partition: per key; compact: counts[0] = kept */
} bench_part_result;

/* `compact bench --partition K ...` with the options bench_parse_args read; the exit status. */
int bench_partition(const bench_opts *o);

#ifdef __cplusplus
}
#endif
#endif /* SC_BENCH_PARTITION_H */
