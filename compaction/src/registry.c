/* registry.c: the algorithm table and each backend's implementations, indexed by the algorithm
 * enum. The front end (core.c), auto (auto.c) and the policy tables (policy.c) all look
 * algorithms up here. */
#include "internal.h"

#include <string.h>

#define CPU  (1u << SC_BACKEND_CPU)
#define CUDA (1u << SC_BACKEND_CUDA)
#define TST  (SC_TUNE_TILE | SC_TUNE_SCAN)

/* One row per algorithm, in enum order. Adding an algorithm = one enum value, one row here,
 * one file per backend; the tests, the CLI and the benchmarks read this table. */
static const sc_algorithm_info k_algorithms[SC_ALGO_COUNT] = {
    {SC_ALGO_SERIAL, "serial", "Serial", "reference (one thread, one pass)",
     "walk the stream once, copying each kept element: the specification", 1, 0, SC_INPUT_FLAGS,
     CPU, 0, "copy"},
    {SC_ALGO_SCAN_SCATTER, "scan-scatter", "Scan + scatter", "Blelloch 1990; Hillis & Steele 1986",
     "exclusive prefix sum of the flags gives each kept element its output index", 1, 0,
     SC_INPUT_FLAGS, CPU | CUDA, SC_TUNE_SCAN, "scan,scatter"},
    {SC_ALGO_HORN, "horn", "Horn's gather-search", "Horn 2005, Moreira et al. 2009 §3.1",
     "pSum counts removed elements to the left; output i binary-searches j = i + pSum[j]", 1, 0,
     SC_INPUT_FLAGS, CPU | CUDA, TST, "prefix sum,search,tile scan,concatenate"},
    {SC_ALGO_JUMPING_JACK, "jumping-jack", "Jumping Jack", "Moreira et al. 2009, JJ paper Alg. 2",
     "MAS[i] = s - pSum[i]: each hole jumps through MAS to a kept element from the tail", 0, 0,
     SC_INPUT_FLAGS, CPU | CUDA, TST, "prefix sum,jumps,tile scan,concatenate"},
    {SC_ALGO_RLZ, "rlz", "Run-lengths of zeros", "Moreira et al. 2009 §3.3, Alg. 1-4",
     "pRLSum of run lengths of removed elements; each output searches forward for its source", 1, 0,
     SC_INPUT_FLAGS, CPU | CUDA, TST | SC_TUNE_RLZ,
     "run lengths,prefix sum,search,tile scan,concatenate"},
    {SC_ALGO_BINARY_TREE, "binary-tree", "Binary tree", "Moreira et al. 2009 §3.4, Alg. 5",
     "reduction tree of kept counts; output i walks down the tree to its source", 1, 0,
     SC_INPUT_FLAGS, CPU | CUDA, TST, "reduction,traversal,tile scan,concatenate"},
    {SC_ALGO_SPATARO, "spataro", "3-phase (Spataro)", "Spataro 2015",
     "per-block count (__syncthreads_count), scan of counts, ballot/popc move", 1, 0,
     SC_INPUT_FLAGS, CPU | CUDA, SC_TUNE_TILE, "count,scan,move"},
    {SC_ALGO_BILLETER, "billeter", "Warp sequences (Billeter et al.)",
     "Billeter, Olsson & Assarsson 2009",
     "each warp owns a sequence: count, prefix of warp counts, move with vector IO", 1, 0,
     SC_INPUT_FLAGS, CPU | CUDA, 0, "count,prefix,move"},
    {SC_ALGO_ATOMIC, "atomic", "Atomic append", "baseline (aggregated atomics)",
     "each warp (CPU) or block (CUDA) reserves its kept elements with one atomic add on a "
     "global counter",
     0, 0, SC_INPUT_FLAGS, CPU | CUDA, 0, "append"},
    {SC_ALGO_REDZONE, "redzone", "Redzone (many blocks)", "Bontes & Gain 2024, Alg. 2 and 3",
     "O(k): survivors in the red zone [n-k, n) fill holes below it; orphans paired by "
     "batch",
     0, 1, SC_INPUT_REMOVAL_LIST, CPU | CUDA, 0, "mark,pair,orphans"},
    {SC_ALGO_REDZONE_BLOCK, "redzone-block", "Redzone (one block)", "Bontes & Gain 2024, Alg. 1",
     "O(k) with one block and shared-memory sync: holes below n-k take red-zone survivors", 0, 1,
     SC_INPUT_REMOVAL_LIST, CPU | CUDA, 0, "mark,pair,orphans"},
    {SC_ALGO_CUB, "cub", "CUB DeviceSelect::Flagged", "NVIDIA CCCL (vendor baseline)",
     "single-pass scan with decoupled look-back, tuned by NVIDIA", 1, 0, SC_INPUT_FLAGS, CUDA, 0,
     "select"},
    {SC_ALGO_SINGLE_PASS, "single-pass", "Single pass (decoupled look-back)",
     "Merrill & Garland 2016",
     "one kernel: tile count, look-back for the tile offset, 16-byte stores", 1, 0, SC_INPUT_FLAGS,
     CUDA, 0, "compact"},
    {SC_ALGO_AUTO, "auto", "Auto (policy table)",
     "Moreira et al. 2009 §4, JJ paper §7 (future work there)",
     "per call, a per-GPU table picks algorithm, tile and scan from n, element size, density, "
     "list or not, stable or not",
     0, 0, SC_INPUT_ANY, CPU | CUDA, 0, "the chosen algorithm's"},
};

/* Backend names, indexed by the backend enum. */
static const char *const k_backend_names[SC_BACKEND_COUNT] = {"cpu", "cuda"};

const char *sc_backend_name(sc_backend backend) {
    if ((int)backend < 0 || backend >= SC_BACKEND_COUNT) return NULL;
    return k_backend_names[backend];
}

const sc_algorithm_info *sc_algorithm_get(sc_algorithm algo) {
    if ((int)algo < 0 || algo >= SC_ALGO_COUNT) return NULL;
    return &k_algorithms[algo];
}

const sc_algorithm_info *sc_algorithm_find(const char *name) {
    if (!name) return NULL;
    for (int i = 0; i < SC_ALGO_COUNT; i++)
        if (strcmp(k_algorithms[i].name, name) == 0) return &k_algorithms[i];
    return NULL;
}

/* Backend entry points, indexed by algorithm (NULL = not implemented there). */
static const sc_impl_fn k_cpu_impl[SC_ALGO_COUNT] = {
    sc_cpu_serial, sc_cpu_scan_scatter, sc_cpu_horn,          sc_cpu_jumping_jack,
    sc_cpu_rlz,    sc_cpu_binary_tree,  sc_cpu_spataro,       sc_cpu_billeter,
    sc_cpu_atomic, sc_cpu_redzone,      sc_cpu_redzone_block, NULL,
    NULL,
};

#ifdef SC_HAVE_CUDA
static const sc_impl_fn k_cuda_impl[SC_ALGO_COUNT] = {
    NULL,
    sc_cuda_scan_scatter,
    sc_cuda_horn,
    sc_cuda_jumping_jack,
    sc_cuda_rlz,
    sc_cuda_binary_tree,
    sc_cuda_spataro,
    sc_cuda_billeter,
    sc_cuda_atomic,
    sc_cuda_redzone,
    sc_cuda_redzone_block,
    sc_cuda_cub,
    sc_cuda_single_pass,
};
#endif

static sc_impl_fn impl_for(sc_algorithm algo, sc_backend backend) {
    if ((int)algo < 0 || algo >= SC_ALGO_COUNT) return NULL;
    if (backend == SC_BACKEND_CPU) return k_cpu_impl[algo];
#ifdef SC_HAVE_CUDA
    if (backend == SC_BACKEND_CUDA) return k_cuda_impl[algo];
#endif
    return NULL;
}

sc_impl_fn sc_impl_for(sc_algorithm algo, sc_backend backend) {
    return impl_for(algo, backend);
}

/* auto has no function of its own: it is available wherever the backend is built. */
int sc_algorithm_available(sc_algorithm algo, sc_backend backend) {
    if (algo == SC_ALGO_AUTO) {
#ifdef SC_HAVE_CUDA
        return backend == SC_BACKEND_CPU || backend == SC_BACKEND_CUDA;
#else
        return backend == SC_BACKEND_CPU;
#endif
    }
    return impl_for(algo, backend) != NULL;
}
