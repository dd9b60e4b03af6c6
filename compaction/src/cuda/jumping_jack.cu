/* jumping_jack.cu: Jumping Jack (Moreira, Reis & de Sousa 2009, JJ paper §4, Alg. 2) inside the
 * block-based framework (blocks.cuh, JJ paper §3.4): per tile of s elements, in its shared
 * memory:
 *   prefix sum: pSum = inclusive all-prefix-sum of the discriminated tile (1 = invalid; Alg. 1:
 *               each thread sums its 8 items, the scan across threads is Hillis-Steele or
 *               Blelloch, job->scan), and Eq. 1: MAS[i] = s - pSum[i];
 *   jumps:      forall i < v = MAS[s - 1] in parallel: idx <- i; while data[idx] is not valid:
 *               idx <- MAS[idx]; output i gathers data[idx], written straight to the tile's
 *               offset in the output (the concatenation).
 * s is the tile's own length (the last tile may be short), as on the CPU backend, so both give
 * the same permutation. Unstable. A tile of up to 256 elements is one warp, 8 to a block
 * (blocks.cuh); larger tiles one block.
 * The walks lengthen as the removed share grows: a hole lands beyond v, on a valid element only
 * as often as the kept share, so the jumps a warp takes (the most of its lanes) grow from about 2
 * at 10 % removed to 7 at 50 % and 36 at 90 % (tile 256, random flags), each one dependent
 * shared-memory load: Jumping Jack's cost at high removal.
 * GPU departure: MAS[i] and the validity of data[i] share one 16-bit word (MAS <= s <= 2048, the
 * top bit is "valid"), so a jump is one shared-memory load instead of two.
 * Timing: prefix sum, jumps and concatenation run in one kernel and are timed together as
 * "jumps", the dominant phase; "tile scan" is timed on its own.
 * Traffic model (compact list --models; F = n flag bytes, E = element bytes, m kept, k removed):
 *   2F + 2m*E (tile counts: F; tile pass: F, the m kept elements gathered and written).
 */
#include "blocks.cuh"

/* Tiles of up to 256 elements per block (one warp each), by access width (bytes; 0 = any size):
 * 8 warps keep a block's launch cost small against its 2048 elements and let 8 blocks fill an
 * SM; the generic path copies element by element and holds fewer items in flight, 4 suffice. */
static constexpr unsigned k_jj_shape[][3] = {{4, 8, 48}, {8, 8, 48}, {16, 8, 32}, {0, 4, 32}};

#define JJ_VALID 0x8000u /* MAS word: data[i] is valid */

/* Alg. 2 for this thread's outputs i = u * T + tid < v: idx <- i; while data[idx] is not valid:
 * idx <- MAS[idx]. GPU departure: the ITEMS walks advance one jump at a time in lock step, so
 * their dependent loads overlap; each walk is the paper's, so the permutation is the same. */
template <class G>
static __device__ __forceinline__ void jj_jumps(const uint16_t *s_mas, uint32_t v, uint32_t tid,
                                                uint32_t *src) {
    constexpr unsigned T = G::T, ITEMS = G::ITEMS;
    uint32_t x[ITEMS];
    int pending = 0;
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) {
        src[u] = u * T + tid; /* idx <- i */
        x[u] = JJ_VALID;
        if (u * T < v && src[u] < v) x[u] = s_mas[src[u]];
        pending |= !(x[u] & JJ_VALID);
    }
    while (pending) {
        pending = 0;
#pragma unroll
        for (unsigned u = 0; u < ITEMS; u++) {
            if (u * T >= v) break;    /* no output of this item or the next ones in the tile */
            if (!(x[u] & JJ_VALID)) { /* idx <- MAS[idx] */
                src[u] = x[u];
                x[u] = s_mas[src[u]];
                pending |= !(x[u] & JJ_VALID);
            }
        }
    }
}

/* jumping-jack: per tile: MAS in shared memory, jumps per output, direct write. */
template <unsigned TILE, unsigned W>
static __global__ void SC_TILE_BOUNDS(k_jj_shape, TILE, W) jj_kernel(sc_tile_args a) {
    typedef SC_TILE_GEOM(k_jj_shape, TILE, W) G;
    constexpr unsigned ITEMS = G::ITEMS;
    __shared__ __align__(16) uint16_t s_mas[G::TILES][TILE];
    __shared__ uint32_t s_warp[G::WARPS + 1];
    const sc_tile_pos p = sc_tile_locate<G, TILE>(a);
    const uint32_t s = p.m;
    const uint32_t kept = sc_tile_kept_bits<ITEMS>(a.flags, p.base, s, p.tid); /* load first */
    const uint32_t offset = sc_tile_offset<G, TILE>(a, p);
    if (s == 0) return; /* past the run-time count: the tile's warp (or block) as a whole */
    uint16_t *mas = s_mas[p.slot];

    /* prefix sum, then Eq. 1: MAS[i] = s - pSum[i], stored with data[i]'s validity */
    uint32_t q[ITEMS];
    const uint32_t z =
        sc_tile_prefix_sum<G>(~kept & sc_tile_in_mask<ITEMS>(s, p.tid), a.scan, s_warp, q);
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) q[u] = (s - q[u]) | ((kept >> u) & 1u ? JJ_VALID : 0u);
    sc_tile_store_u16<ITEMS>(mas, q, p.tid);
    sc_tile_sync<G>();

    /* jumps: v <- MAS[s - 1]; forall i < v in parallel */
    const uint32_t v = s - z;
    uint32_t src[ITEMS];
    jj_jumps<G>(mas, v, p.tid, src);
    sc_tile_write<G, W>(a, p, offset, v, src);
}

SC_TILE_LAUNCHER(jj_launcher, jj_kernel, k_jj_shape);

extern "C" sc_status sc_cuda_jumping_jack(sc_job *job) {
    SC_TILE_RUN(job, jj_launcher, "jumps");
}
