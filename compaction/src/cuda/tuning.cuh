/* tuning.cuh: the launch shapes of the CUDA kernels, as data: one table per kernel family, one
 * row per architecture, apart from the kernels that run them (as CUB's
 * device/dispatch/tuning/tuning_select_if.cuh is apart from its agents). auto's policy tables
 * (policy_builtin.c) choose an algorithm; these rows shape its launches. A kernel file names
 * each value once, from its table's row (SC_TUNED), and never a number of its own; the values
 * that are structure rather than choice (a 16-byte load is 16 flags) stay in the kernel file.
 *
 * Rows: `arch` is the first architecture a row holds for, in __CUDA_ARCH__ form (750 = sm_75);
 * a row holds up to the next row's arch, the first row (arch 0) for everything below it. Device
 * code reads the row of the architecture it is compiled for (__CUDA_ARCH__: also the one a
 * newer GPU runs when it compiles the library's PTX), a compile-time constant; the host pass
 * reads the first row. So a column the host launch code also reads (threads per block, tile,
 * grid) must be the same in every row, which the static_asserts below check; only device-only
 * columns (launch bounds' blocks per SM, words in flight) may differ. To let a host-read column
 * differ too, the host must first read the row of the code the device runs (CUB reads it from
 * cudaFuncGetAttributes' ptxVersion).
 *
 * Evidence: every value has a bullet in docs/design.md#tuning-evidence (named by the table and
 * column, e.g. "k_single_pass_tune.block") with the command that measures it again. Unless a row
 * says otherwise, the values were chosen on sm_90 and hold for every architecture. */
#ifndef SC_CUDA_TUNING_CUH
#define SC_CUDA_TUNING_CUH

#include <stddef.h>

/* The architecture this compilation pass is for: __CUDA_ARCH__ on the device, 0 on the host. */
#if defined(__CUDA_ARCH__)
#define SC_TUNE_ARCH __CUDA_ARCH__
#else
#define SC_TUNE_ARCH 0
#endif

/* The row of `table` for architecture `arch`: the last whose arch is at most it. */
template <typename R, size_t N>
static __host__ __device__ constexpr R sc_tune_row(const R (&table)[N], unsigned arch) {
    size_t pick = 0;
    for (size_t i = 0; i < N; i++)
        if (table[i].arch <= arch) pick = i;
    return table[pick];
}
#define SC_TUNED(table) sc_tune_row(table, SC_TUNE_ARCH)

/* Rows in order of arch, the first one's 0; `field` the same in every row (a host-read column). */
template <typename R, size_t N> static constexpr bool sc_tune_ordered(const R (&table)[N]) {
    for (size_t i = 1; i < N; i++)
        if (table[i].arch <= table[i - 1].arch) return false;
    return table[0].arch == 0;
}
template <typename R, typename F, size_t N>
static constexpr bool sc_tune_same(const R (&table)[N], F R::*field) {
    for (size_t i = 1; i < N; i++)
        if (table[i].*field != table[0].*field) return false;
    return true;
}

/* ---- the SM: hardware limits, not choices ---- */

/* The most warps and blocks an SM holds (CUDA C Programming Guide, compute capabilities table):
 * launch bounds may not ask for more. Device-only (blocks.cuh's launch bounds). */
typedef struct sc_sm_limits {
    unsigned arch;
    unsigned max_warps, max_blocks;
} sc_sm_limits;
static constexpr sc_sm_limits k_sm_limits[] = {
    {0, 64u, 32u},   {750, 32u, 16u}, {800, 64u, 32u},
    {860, 48u, 16u}, {890, 48u, 24u}, {900, 64u, 32u},
};

/* ---- single-pass (single_pass.cu) ---- */

/* block: threads per block. flags, flags_small: flags per thread of the full tile and of the
 * small-stream tile (4 or 16: the kernel's one 4- or 16-byte flag load), which streams take
 * where the small tiles are few enough for the look-back by blocks (k_lookback_tune).
 * pref16 .. pref1: copy words per thread gathered before the look-back, by copy word (16, 8, 4,
 * 2, 1 bytes); the small tile gathers a quarter of them, at least 2. Host-read: all. */
typedef struct sc_single_pass_tune {
    unsigned arch;
    int block, flags, flags_small;
    int pref16, pref8, pref4, pref2, pref1;
} sc_single_pass_tune;
static constexpr sc_single_pass_tune k_single_pass_tune[] = {
    {0, 256, 16, 4, 8, 8, 16, 16, 16},
};

/* ---- the decoupled look-back (lookback.cuh: single-pass, scan-scatter, partition) ---- */

/* block_tiles: the look-back runs by the whole block up to this many tiles per SM, by one warp
 * above. Host-read. */
typedef struct sc_lookback_tune {
    unsigned arch;
    unsigned block_tiles;
} sc_lookback_tune;
static constexpr sc_lookback_tune k_lookback_tune[] = {
    {0, 2u},
};

/* ---- atomic (atomic.cu) ---- */

/* block: threads per block (a chunk is block x 16 flags). pref16 .. pref1: copy words per thread
 * gathered while the block's atomic is in flight, by copy word. Host-read: all. */
typedef struct sc_atomic_tune {
    unsigned arch;
    int block;
    int pref16, pref8, pref4, pref2, pref1;
} sc_atomic_tune;
static constexpr sc_atomic_tune k_atomic_tune[] = {
    {0, 256, 4, 8, 8, 8, 8},
};

/* ---- scan-scatter and the device-wide scan (scan_scatter.cu) ---- */

/* block: threads of the tile kernels (scan, reduce); one: threads of the single-block scan of
 * small arrays; few: its threads for arrays of one such tile. scatter_block: threads of the
 * scatter; scatter_blocks: its blocks per SM (launch bounds, device-only); scatter4, scatter8,
 * scatter16, scatter_any: its rounds of 32 elements per warp, by element size. Host-read: all
 * but scatter_blocks. */
typedef struct sc_scan_scatter_tune {
    unsigned arch;
    int block, one, few;
    int scatter_block, scatter_blocks;
    int scatter4, scatter8, scatter16, scatter_any;
} sc_scan_scatter_tune;
static constexpr sc_scan_scatter_tune k_scan_scatter_tune[] = {
    {0, 256, 1024, 128, 256, 4, 8, 8, 4, 4},
};

/* ---- the k-way partition (partition.cu) ---- */

/* block: threads per block of every kernel (a tile is block x 16 keys). hist_blocks: histogram
 * blocks per SM (launch bounds and grid). staged_blocks: staged pass blocks per SM with up to 4
 * keys and elements up to 4 bytes (launch bounds, device-only; Turing holds 1024 threads an SM:
 * 4). gather_blocks: gathered pass blocks per SM (launch bounds, device-only). grid_blocks: the
 * cub path's grid-stride kernels, blocks per SM. pref16 .. pref1: copy words per thread
 * gathered before the look-back in the gathered pass, by copy word. Host-read: block,
 * hist_blocks, grid_blocks, pref16 .. pref1. */
typedef struct sc_partition_tune {
    unsigned arch;
    int block, hist_blocks, staged_blocks, gather_blocks, grid_blocks;
    int pref16, pref8, pref4, pref2, pref1;
} sc_partition_tune;
static constexpr sc_partition_tune k_partition_tune[] = {
    {0, 256, 4, 4, 4, 8, 8, 8, 16, 16, 16},
    {800, 256, 4, 6, 4, 8, 8, 8, 16, 16, 16},
};

/* ---- the block-based framework (blocks.cuh: Horn, Jumping Jack, RLZ, Binary-Tree) ---- */

/* count_threads: threads of the tile-scan count kernel; chunk_shift: log2 of its flags per
 * chunk (one block; chunk / (count_threads x 16) rounds of 16-byte loads, an even number);
 * scan_threads: threads of the one-block chunk scan; fused_chunks: up to this many chunks the
 * tile kernel scans the chunk totals itself. Host-read: all. */
typedef struct sc_blocks_tune {
    unsigned arch;
    int count_threads, chunk_shift, scan_threads, fused_chunks;
} sc_blocks_tune;
static constexpr sc_blocks_tune k_blocks_tune[] = {
    {0, 256, 15, 1024, 32},
};

/* Each tile algorithm's kernel, one row per access width (bytes; 0 = any element size):
 * {width, tiles per block, warps per SM} (blocks.cuh, sc_tile_table): the tiles of up to 256
 * elements a block runs (one warp each), and the warps an SM should hold at once, which caps
 * the registers a thread may use through the launch bounds. 8 warps keep a block's launch cost
 * small against its 2048 elements and let 8 blocks fill an SM (RLZ too: its 6 TILE words of 16
 * bits a tile, RL double-buffered and the two trees, still allow 8 blocks); the generic path
 * copies element by element and holds fewer items in flight, 4 suffice. The same on every
 * architecture (the host reads tiles per block); k_sm_limits bounds the warps. */
static constexpr unsigned k_horn_shape[][3] = {{4, 8, 48}, {8, 8, 48}, {16, 8, 32}, {0, 4, 32}};
static constexpr unsigned k_jj_shape[][3] = {{4, 8, 48}, {8, 8, 48}, {16, 8, 32}, {0, 4, 32}};
static constexpr unsigned k_rlz_shape[][3] = {{4, 8, 48}, {8, 8, 48}, {16, 8, 32}, {0, 4, 32}};
static constexpr unsigned k_bt_shape[][3] = {{4, 8, 48}, {8, 8, 48}, {16, 8, 32}, {0, 4, 32}};

/* ---- Spataro (spataro.cu) ---- */

/* count_flags: flags a count block covers (its tiles, at most 16). hold4, hold8, hold16: bytes
 * of kept elements a move thread holds in registers (at least one tile's items), by element
 * size, which sets the tiles a move block works through; any_elems: the elements a move block
 * of the any-size path takes; max_tiles: tiles a move block takes at most. Host-read: all. */
typedef struct sc_spataro_tune {
    unsigned arch;
    unsigned count_flags, hold4, hold8, hold16, any_elems, max_tiles;
} sc_spataro_tune;
static constexpr sc_spataro_tune k_spataro_tune[] = {
    {0, 2048u, 64u, 64u, 64u, 1024u, 4u},
};

/* ---- Billeter (billeter.cu) ---- */

/* warps: warps per block; sequences: sequences at most (one scan tile of counts, the scan's
 * few x 16); count_loads: 16-byte flag loads per lane in flight in the count; subs: sub-chunks
 * per move step (1 to 4: their counts are the bytes of one word). Host-read: all. */
typedef struct sc_billeter_tune {
    unsigned arch;
    int warps, sequences, count_loads, subs;
} sc_billeter_tune;
static constexpr sc_billeter_tune k_billeter_tune[] = {
    {0, 4, 2048, 8, 4},
};

/* ---- Redzone (redzone.cu, redzone.cuh, redzone_block.cu) ---- */

/* threads: threads per block of mark, pair and orphans; pair_blocks: pair blocks per SM (launch
 * bounds and |P|); max_blocks: |P| at most (orphans keeps 3 words a batch in shared memory);
 * items: pairs (and marks) per thread per round; mark_blocks: mark blocks per SM at most;
 * clear_threads, clear_blocks: the map-clearing kernel's threads and blocks per SM at most;
 * block_threads: redzone-block's one block. Host-read: all. */
typedef struct sc_redzone_tune {
    unsigned arch;
    int threads, pair_blocks, max_blocks, items, mark_blocks, clear_threads, clear_blocks;
    int block_threads;
} sc_redzone_tune;
static constexpr sc_redzone_tune k_redzone_tune[] = {
    {0, 256, 4, 2048, 4, 8, 256, 8, 1024},
};

/* ---- the CUB baseline's gather (cub.cu) ---- */

/* threads, blocks: the grid-stride gather after cub::DeviceSelect, threads per block and blocks
 * per SM. Host-read: all. */
typedef struct sc_cub_tune {
    unsigned arch;
    int threads, blocks;
} sc_cub_tune;
static constexpr sc_cub_tune k_cub_tune[] = {
    {0, 256, 8},
};

/* ---- the checks: rows in order, and the host-read columns the same in every row ---- */

#define SC_TUNE_SAME(type, table, field)                                                           \
    static_assert(sc_tune_same(table, &type::field),                                               \
                  #table "." #field ": the host reads it, so every row holds the same value")
static_assert(sc_tune_ordered(k_sm_limits) && sc_tune_ordered(k_single_pass_tune) &&
                  sc_tune_ordered(k_lookback_tune) && sc_tune_ordered(k_atomic_tune) &&
                  sc_tune_ordered(k_scan_scatter_tune) && sc_tune_ordered(k_partition_tune) &&
                  sc_tune_ordered(k_blocks_tune) && sc_tune_ordered(k_spataro_tune) &&
                  sc_tune_ordered(k_billeter_tune) && sc_tune_ordered(k_redzone_tune) &&
                  sc_tune_ordered(k_cub_tune),
              "rows in order of arch, the first one's 0");
SC_TUNE_SAME(sc_single_pass_tune, k_single_pass_tune, block);
SC_TUNE_SAME(sc_single_pass_tune, k_single_pass_tune, flags);
SC_TUNE_SAME(sc_single_pass_tune, k_single_pass_tune, flags_small);
SC_TUNE_SAME(sc_single_pass_tune, k_single_pass_tune, pref16);
SC_TUNE_SAME(sc_single_pass_tune, k_single_pass_tune, pref8);
SC_TUNE_SAME(sc_single_pass_tune, k_single_pass_tune, pref4);
SC_TUNE_SAME(sc_single_pass_tune, k_single_pass_tune, pref2);
SC_TUNE_SAME(sc_single_pass_tune, k_single_pass_tune, pref1);
SC_TUNE_SAME(sc_lookback_tune, k_lookback_tune, block_tiles);
SC_TUNE_SAME(sc_atomic_tune, k_atomic_tune, block);
SC_TUNE_SAME(sc_atomic_tune, k_atomic_tune, pref16);
SC_TUNE_SAME(sc_atomic_tune, k_atomic_tune, pref8);
SC_TUNE_SAME(sc_atomic_tune, k_atomic_tune, pref4);
SC_TUNE_SAME(sc_atomic_tune, k_atomic_tune, pref2);
SC_TUNE_SAME(sc_atomic_tune, k_atomic_tune, pref1);
SC_TUNE_SAME(sc_scan_scatter_tune, k_scan_scatter_tune, block);
SC_TUNE_SAME(sc_scan_scatter_tune, k_scan_scatter_tune, one);
SC_TUNE_SAME(sc_scan_scatter_tune, k_scan_scatter_tune, few);
SC_TUNE_SAME(sc_scan_scatter_tune, k_scan_scatter_tune, scatter_block);
SC_TUNE_SAME(sc_scan_scatter_tune, k_scan_scatter_tune, scatter4);
SC_TUNE_SAME(sc_scan_scatter_tune, k_scan_scatter_tune, scatter8);
SC_TUNE_SAME(sc_scan_scatter_tune, k_scan_scatter_tune, scatter16);
SC_TUNE_SAME(sc_scan_scatter_tune, k_scan_scatter_tune, scatter_any);
SC_TUNE_SAME(sc_partition_tune, k_partition_tune, block);
SC_TUNE_SAME(sc_partition_tune, k_partition_tune, hist_blocks);
SC_TUNE_SAME(sc_partition_tune, k_partition_tune, grid_blocks);
SC_TUNE_SAME(sc_partition_tune, k_partition_tune, pref16);
SC_TUNE_SAME(sc_partition_tune, k_partition_tune, pref8);
SC_TUNE_SAME(sc_partition_tune, k_partition_tune, pref4);
SC_TUNE_SAME(sc_partition_tune, k_partition_tune, pref2);
SC_TUNE_SAME(sc_partition_tune, k_partition_tune, pref1);
SC_TUNE_SAME(sc_blocks_tune, k_blocks_tune, count_threads);
SC_TUNE_SAME(sc_blocks_tune, k_blocks_tune, chunk_shift);
SC_TUNE_SAME(sc_blocks_tune, k_blocks_tune, scan_threads);
SC_TUNE_SAME(sc_blocks_tune, k_blocks_tune, fused_chunks);
SC_TUNE_SAME(sc_spataro_tune, k_spataro_tune, count_flags);
SC_TUNE_SAME(sc_spataro_tune, k_spataro_tune, hold4);
SC_TUNE_SAME(sc_spataro_tune, k_spataro_tune, hold8);
SC_TUNE_SAME(sc_spataro_tune, k_spataro_tune, hold16);
SC_TUNE_SAME(sc_spataro_tune, k_spataro_tune, any_elems);
SC_TUNE_SAME(sc_spataro_tune, k_spataro_tune, max_tiles);
SC_TUNE_SAME(sc_billeter_tune, k_billeter_tune, warps);
SC_TUNE_SAME(sc_billeter_tune, k_billeter_tune, sequences);
SC_TUNE_SAME(sc_billeter_tune, k_billeter_tune, count_loads);
SC_TUNE_SAME(sc_billeter_tune, k_billeter_tune, subs);
SC_TUNE_SAME(sc_redzone_tune, k_redzone_tune, threads);
SC_TUNE_SAME(sc_redzone_tune, k_redzone_tune, pair_blocks);
SC_TUNE_SAME(sc_redzone_tune, k_redzone_tune, max_blocks);
SC_TUNE_SAME(sc_redzone_tune, k_redzone_tune, items);
SC_TUNE_SAME(sc_redzone_tune, k_redzone_tune, mark_blocks);
SC_TUNE_SAME(sc_redzone_tune, k_redzone_tune, clear_threads);
SC_TUNE_SAME(sc_redzone_tune, k_redzone_tune, clear_blocks);
SC_TUNE_SAME(sc_redzone_tune, k_redzone_tune, block_threads);
SC_TUNE_SAME(sc_cub_tune, k_cub_tune, threads);
SC_TUNE_SAME(sc_cub_tune, k_cub_tune, blocks);

#endif /* SC_CUDA_TUNING_CUH */
