/* bench_model.c: the least bytes each CUDA algorithm's passes move (each array read or written
 * once), the floor behind "% floor" at the copy's bandwidth; the same lines head each kernel
 * file in compaction/src/cuda/. n elements of es bytes, m kept, k removed, flags 1 byte. */
#include "bench.h"

#include <string.h>

typedef struct model {
    const char *name;
    const char *passes;                                  /* the passes and what each moves */
    double f, idx, in_all, in_kept, out_kept, list, red; /* bytes per flag / element / ... */
} model;

/* Horn, Jumping Jack, RLZ and the binary tree differ in how a tile finds its sources, not in
 * what they move: one model (passes and terms) for the four. */
#define TILE_PASSES                                                                                \
    "tile counts: flags; tile pass: flags, kept elements gathered, written", 2, 0, 0, 1, 1, 0, 0

/* Per term: f * F + idx * 4n + in_all * n*es + in_kept * m*es + out_kept * m*es + list * 4k +
 * red * k*es. */
static const model k_models[] = {
    {"copy", "read n*es, write n*es", 0, 0, 1, 0, 0, 0, 0},
    {"cub", "one pass: flags, every element, the kept written", 1, 0, 1, 0, 1, 0, 0},
    {"single-pass", "one pass: flags, kept elements gathered, written; look-back words", 1, 0, 0, 1,
     1, 0, 0},
    {"scan-scatter",
     "scan (one pass, look-back words): flags in, indices out (16-bit offsets in tiles of 8192, "
     "a 32-bit base a tile); scatter: indices, kept elements in, out",
     1, 1, 0, 1, 1, 0, 0},
    {"horn", TILE_PASSES},
    {"jumping-jack", TILE_PASSES},
    {"rlz", TILE_PASSES},
    {"binary-tree", TILE_PASSES},
    {"spataro", "count: flags; move: flags, kept elements, written", 2, 0, 0, 1, 1, 0, 0},
    {"billeter",
     "count: flags; move: flags, every element (vector loads; from 16 bytes the kept only), kept "
     "written",
     2, 0, 1, 0, 1, 0, 0},
    {"atomic", "one pass: flags, kept elements, written; one atomic per block chunk", 1, 0, 0, 1, 1,
     0, 0},
    {"redzone", "mark: the list; pair: the list, red-zone elements in, holes written", 0, 0, 0, 0,
     0, 2, 2},
    {"redzone-block", "as redzone, in one block", 0, 0, 0, 0, 0, 2, 2},
};

double bench_model_bytes(const char *algorithm, size_t n, size_t es, size_t kept) {
    for (size_t i = 0; i < sizeof k_models / sizeof *k_models; i++) {
        const model *m = &k_models[i];
        if (strcmp(m->name, algorithm) != 0) continue;
        double N = (double)n, E = (double)es, M = (double)kept, K = N - M;
        double in_all = m->in_all, in_kept = m->in_kept;
        if (strcmp(m->name, "billeter") == 0 && es >= 16) { /* billeter.cu: loads kept only */
            in_all = 0.0;
            in_kept = 1.0;
        }
        return m->f * N + m->idx * 4.0 * N + in_all * N * E + in_kept * M * E +
               m->out_kept * M * E + m->list * 4.0 * K + m->red * K * E +
               (strcmp(m->name, "copy") == 0 ? N * E : 0.0);
    }
    return -1.0;
}

const char *bench_model_passes(const char *algorithm) {
    for (size_t i = 0; i < sizeof k_models / sizeof *k_models; i++)
        if (strcmp(k_models[i].name, algorithm) == 0) return k_models[i].passes;
    return NULL;
}
