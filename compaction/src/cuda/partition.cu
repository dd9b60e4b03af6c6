/* partition.cu: the k-way partition on the GPU (sc_partition; its specification is
 * src/cpu/partition.c, and both versions here must equal it byte for byte).
 *   single-pass: the single-pass idea of single_pass.cu generalised from 2 groups to k
 *     (Merrill & Garland 2016, as Merrill's one-sweep radix sort uses it). A histogram pass
 *     over the keys (16-byte loads, bit-plane popcounts) gives each group's base (the spec's
 *     exclusive scan of the group totals); then one pass of tiles of 4096 elements taken by
 *     ticket: each tile ranks its elements per key (the spec's rank_key[i] within the tile:
 *     bit-plane masks of a thread's 16 keys, a popcount for the rank inside the thread, one
 *     block scan of 16-bit counters packed two keys a word for the threads before it),
 *     publishes its k counts, finds its per-key offsets by a decoupled look-back in which one
 *     warp reads the k states of 32/k' tiles a round (k' = k rounded up to a power of two; the
 *     whole block, 256/k' tiles a round, when the grid is a few tiles per SM), and writes each
 *     key's run contiguously. Elements of 1, 2, 4 or 8 bytes are staged: each thread loads
 *     the elements of its 16 keys with them (16-byte loads), the ranking puts them into shared
 *     memory at their slots, and they are written out from there. The kernels are compiled
 *     for 2 key bits (k <= 4) and for 4, so that counting and ranking loop over the keys and
 *     bit planes that exist at compile time (run-time loops made the histogram SM-bound;
 *     evidence: docs/design.md#tuning-evidence).
 *     Other sizes are gathered by slot (a list of source elements in shared memory), their
 *     first words before the look-back, as single_pass.cu gathers its kept elements.
 *   cub: the vendor baseline: cub::DeviceRadixSort::SortPairs of (key, index) over the few bits
 *     k needs (a stable LSD sort), then a gather of the elements.
 * Keys are checked while the histogram counts them; a bad key stops the scatter and is
 * reported through the counts (compaction.h).
 * Traffic model of single-pass (n elements of E bytes, k keys):
 *   histogram n; pass n + 2nE; look-back states 8k bytes a tile (4096 elements), cleared by
 *   one memset per call, written once, read from L2 by the next few tiles: about 2 + 2E bytes
 *   an element (4-byte elements: 10, 16-byte: 34; what that floor is in time on a measured GPU:
 *   docs/design.md#tuning-evidence). Flagged single-pass compaction of the same n, half
 *   removed, moves 1 + E (5 or 17) bytes an element by its model; at 4 bytes its gather of the
 *   kept half reads every 32-byte sector, 7 bytes an element from DRAM. */
#include "common.cuh"
#include "primitives.cuh"
#include "tuning.cuh"

#include <cub/device/device_radix_sort.cuh>
#include <limits.h>

/* The launch shape, from k_partition_tune (tuning.cuh; evidence: docs/design.md#tuning-
 * evidence): threads per block; histogram blocks per SM (one wave of the grid-stride loop, no
 * second, partial wave; two 16-byte loads a thread in flight: 32 KB a SM); staged pass blocks
 * per SM with up to 4 keys and elements up to 4 bytes (their 40 registers a thread and 21 KB of
 * shared memory allow 6; Turing holds 1024 threads a SM: 4); gathered pass blocks per SM; the
 * cub path's grid-stride blocks per SM; copy words per thread gathered before the look-back. */
static constexpr int PT_BLOCK = SC_TUNED(k_partition_tune).block;
static constexpr int PT_HIST_BLOCKS = SC_TUNED(k_partition_tune).hist_blocks;
static constexpr int PT_STAGED_BLOCKS = SC_TUNED(k_partition_tune).staged_blocks;
static constexpr int PT_GATHER_BLOCKS = SC_TUNED(k_partition_tune).gather_blocks;
static constexpr int PT_GRID_BLOCKS = SC_TUNED(k_partition_tune).grid_blocks;
static constexpr int PT_PREF_16 = SC_TUNED(k_partition_tune).pref16;
static constexpr int PT_PREF_8 = SC_TUNED(k_partition_tune).pref8;
static constexpr int PT_PREF_4 = SC_TUNED(k_partition_tune).pref4;
static constexpr int PT_PREF_2 = SC_TUNED(k_partition_tune).pref2;
static constexpr int PT_PREF_1 = SC_TUNED(k_partition_tune).pref1;
/* the look-back by the whole block up to this many tiles per SM (k_lookback_tune, as
 * lookback.cuh's look_back_by_block) */
static constexpr unsigned PT_LB_BLOCK_TILES = SC_TUNED(k_lookback_tune).block_tiles;
#define PT_KEYS  16 /* keys per thread: one 16-byte load (structure: pt_load_keys) */
#define PT_TILE  (PT_BLOCK * PT_KEYS)
#define PT_WARPS (PT_BLOCK / SC_WARP)
#define PT_WORDS (SC_PARTITION_MAX_KEYS / 2) /* 16-bit counters, two keys a word */

/* The call's device scratch: hist[0..k) and the bad-key flag, the ticket counter, then one
 * look-back word per tile and key (cleared per call: status 0 = not ready). */
typedef struct pt_head {
    uint32_t hist[SC_PARTITION_MAX_KEYS];
    uint32_t bad;
    uint32_t ticket;
    uint32_t counts[SC_PARTITION_MAX_KEYS]; /* the counts, when the caller gave no d_kept */
} pt_head;

#define PT_AGGREGATE 1ull
#define PT_PREFIX    2ull

/* Bits a key needs: keys < 2^bits for every key below k. */
static unsigned pt_key_bits(unsigned k) {
    unsigned b = 0;
    while ((1u << b) < k) b++;
    return b;
}

/* The 16 keys of a thread's chunk from `first`: key e of the chunk in byte e >> 2 of w[e & 3]
 * (a 4x4 byte transpose of the 16-byte load), so that bit (e & 3) + 8 * (e >> 2) of a plane
 * below stands for key e and the bit order is the key order. valid: those bits for the keys
 * below n (the others read 0). ORDER false: any order will do (the histogram only counts). */
template <bool ORDER>
static __device__ __forceinline__ void pt_load_keys(const uint8_t *keys, int vec, size_t first,
                                                    uint32_t n, uint32_t w[4], uint32_t *valid) {
    if (vec && first + PT_KEYS <= n) {
        const uint4 v = __ldg((const uint4 *)(keys + first));
        if (ORDER) {
            const uint32_t t0 = __byte_perm(v.x, v.y, 0x5140), t1 = __byte_perm(v.z, v.w, 0x5140);
            const uint32_t t2 = __byte_perm(v.x, v.y, 0x7362), t3 = __byte_perm(v.z, v.w, 0x7362);
            w[0] = __byte_perm(t0, t1, 0x5410);
            w[1] = __byte_perm(t0, t1, 0x7632);
            w[2] = __byte_perm(t2, t3, 0x5410);
            w[3] = __byte_perm(t2, t3, 0x7632);
        } else {
            w[0] = v.x;
            w[1] = v.y;
            w[2] = v.z;
            w[3] = v.w;
        }
        *valid = 0x0f0f0f0fu;
        return;
    }
    uint32_t m = 0;
    w[0] = w[1] = w[2] = w[3] = 0;
#pragma unroll
    for (unsigned e = 0; e < PT_KEYS; e++)
        if (first + e < n) {
            w[e & 3] |= (uint32_t)keys[first + e] << (8 * (e >> 2));
            m |= 1u << ((e & 3) + 8 * (e >> 2));
        }
    *valid = m;
}

/* Bit plane i of the chunk: bit (v + 8b) = bit i of byte b of w[v] (i < 4). */
static __device__ __forceinline__ uint32_t pt_plane(const uint32_t w[4], unsigned i) {
    const uint32_t m = 0x01010101u << i;
    return ((w[0] & m) | (w[1] & m) << 1 | (w[2] & m) << 2 | (w[3] & m) << 3) >> i;
}

/* The chunk's keys equal to j, as plane bits: the planes of the NB key bits matched. NB is a
 * template argument (keys < k <= 2^NB): with the planes and the keys' loops known at compile
 * time, the counting and ranking below are a few instructions a key, not a loop over 16
 * possible keys and 4 possible planes each (evidence: docs/design.md#tuning-evidence). */
template <unsigned NB>
static __device__ __forceinline__ uint32_t pt_match(const uint32_t p[4], unsigned j,
                                                    uint32_t valid) {
    uint32_t s = valid;
#pragma unroll
    for (unsigned i = 0; i < NB; i++) s &= (j >> i & 1u) ? p[i] : ~p[i];
    return s;
}

/* histogram: count each key from 16-byte loads (a popcount of bit-plane matches a key); a key
 * >= k marks the call bad: a bit above the key bits, or (k not a power of two) a key that no
 * j < k matches, so the counts fall short of the keys seen. */
template <unsigned NB>
__global__ void __launch_bounds__(PT_BLOCK, PT_HIST_BLOCKS)
    pt_histogram_kernel(const uint8_t *keys, const uint32_t *d_n, uint32_t bound, unsigned k,
                        unsigned nb, pt_head *head) {
    __shared__ uint32_t cnt[SC_PARTITION_MAX_KEYS];
    if (threadIdx.x < SC_PARTITION_MAX_KEYS) cnt[threadIdx.x] = 0;
    __syncthreads();
    const uint32_t n = sc_dev_count(d_n, bound);
    const int vec = ((uintptr_t)keys & 15) == 0;
    const size_t chunks = ((size_t)n + PT_KEYS - 1) / PT_KEYS;
    uint32_t c[1u << NB];
#pragma unroll
    for (unsigned j = 0; j < (1u << NB); j++) c[j] = 0;
    uint32_t seen = 0, any = 0;
    const size_t stride = (size_t)gridDim.x * PT_BLOCK;
    for (size_t ch = (size_t)blockIdx.x * PT_BLOCK + threadIdx.x; ch < chunks; ch += 2 * stride) {
        /* two loads in flight (the second may lie past n: none valid) */
        uint32_t w[2][4], valid[2];
#pragma unroll
        for (int h = 0; h < 2; h++)
            pt_load_keys<false>(keys, vec, (ch + h * stride) * PT_KEYS, n, w[h], &valid[h]);
#pragma unroll
        for (int h = 0; h < 2; h++) {
            uint32_t p[4];
            any |= w[h][0] | w[h][1] | w[h][2] | w[h][3];
            seen += (uint32_t)__popc(valid[h]);
#pragma unroll
            for (unsigned i = 0; i < 4; i++) p[i] = i < NB ? pt_plane(w[h], i) : 0u;
#pragma unroll
            for (unsigned j = 0; j < (1u << NB); j++)
                if (j < k) c[j] += (uint32_t)__popc(pt_match<NB>(p, j, valid[h]));
        }
    }
    uint32_t counted = 0;
#pragma unroll
    for (unsigned j = 0; j < (1u << NB); j++) counted += c[j];
    const uint32_t high = 0x01010101u * (0xffu & ~((1u << nb) - 1u));
    const int bad = __syncthreads_or((any & high) || counted != seen);
#pragma unroll
    for (unsigned j = 0; j < (1u << NB); j++)
        if (j < k) {
            const uint32_t s = sc_warp_sum(c[j]);
            if (sc_lane() == 0 && s) atomicAdd(&cnt[j], s);
        }
    __syncthreads();
    if (threadIdx.x < k && cnt[threadIdx.x]) atomicAdd(&head->hist[threadIdx.x], cnt[threadIdx.x]);
    if (threadIdx.x == 0 && bad) atomicOr(&head->bad, 1u);
}

/* The counts where the caller wants them: d_out[j] = hist[j], or SC_BAD_LIST in d_out[0]. */
static __device__ void pt_write_counts(const pt_head *head, unsigned k, uint32_t *d_out) {
    if (threadIdx.x < k)
        d_out[threadIdx.x] =
            head->bad ? (threadIdx.x == 0 ? SC_BAD_LIST : 0u) : head->hist[threadIdx.x];
}

static __device__ __forceinline__ uint64_t pt_load(const uint64_t *p) {
    uint64_t v;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
/* Tile states: status and value share one word, so no fence is needed. */
static __device__ __forceinline__ void pt_store(uint64_t *p, uint64_t v) {
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

typedef struct pt_args {
    const char *in;
    const uint8_t *keys;
    char *out;
    uint32_t n;          /* the bound */
    const uint32_t *d_n; /* run-time count, or NULL */
    unsigned k;          /* keys */
    unsigned nb;         /* key bits: k <= 2^nb */
    unsigned lk;         /* log2 of k', k rounded up to a power of two */
    unsigned elem_size;
    unsigned wpe;   /* words per element */
    uint32_t magic; /* q / wpe == __umulhi(q, magic) for every q < 2^24 (wpe > 1) */
    int keys_vec;   /* keys is 16-byte aligned */
    int in_vec;     /* in is 16-byte aligned */
    pt_head *head;
    uint64_t *status;   /* k states a tile: status[tile * k + j] */
    uint32_t *d_counts; /* where the counts go */
} pt_args;

/* One read of a look-back: key j's state of tile t into *st and *val (st 0: not ready yet; 3:
 * nothing to wait for, nothing to add, as for a key already done; before tile 0: an empty
 * prefix). */
static __device__ __forceinline__ void pt_read_state(const pt_args &a, bool done, long long t,
                                                     unsigned j, unsigned *st, uint32_t *val) {
    *st = 3;
    *val = 0;
    if (!done) {
        if (t < 0) {
            *st = (unsigned)PT_PREFIX;
        } else {
            const uint64_t w = pt_load(a.status + (size_t)t * a.k + j);
            *st = (unsigned)(w >> 32);
            *val = (uint32_t)w;
        }
    }
}

/* Look-back by one warp for every key at once: lane l reads key j = l mod k' of tile
 * (window - l / k'), 32 / k' tiles a round; each key adds its aggregates up to its nearest
 * inclusive prefix (a segmented sum over the lanes of the key); the warp moves its window
 * until every key has met a prefix. Returns, in every lane, the exclusive prefix of the lane's
 * key (lanes of keys >= k: 0). */
static __device__ uint32_t pt_look_back(const pt_args &a, uint32_t tile) {
    const unsigned lane = sc_lane(), lk = a.lk, kp = 1u << lk;
    const unsigned j = lane & (kp - 1), off = lane >> lk;
    const uint32_t same = (0xffffffffu / ((1u << kp) - 1u)) << j; /* the lanes of key j */
    uint32_t excl = 0;
    bool done = j >= a.k;
    for (long long window = (long long)tile - 1;; window -= (long long)(SC_WARP >> lk)) {
        const long long t = window - (long long)off;
        unsigned st;
        uint32_t val;
        do pt_read_state(a, done, t, j, &st, &val);
        while (__any_sync(SC_FULL_MASK, st == 0));
        const uint32_t pre = __ballot_sync(SC_FULL_MASK, st == (unsigned)PT_PREFIX) & same;
        const unsigned stop = pre ? (unsigned)__ffs(pre) - 1 : SC_WARP - 1;
        uint32_t v = lane <= stop ? val : 0;
        for (unsigned d = kp; d < SC_WARP; d <<= 1) v += __shfl_xor_sync(SC_FULL_MASK, v, d);
        excl += v;
        done = done || pre != 0;
        if (__all_sync(SC_FULL_MASK, done)) break;
    }
    return excl;
}

/* The same look-back by the whole block, PT_BLOCK / k' tiles a round (thread x reads key
 * x mod k' of tile window - x / k'). When the whole grid is resident the tiles reach their
 * look-back together and few prefixes exist yet: a warp walks back tile * k' / 32 rounds where
 * the block needs tile * k' / PT_BLOCK; with many waves the nearest prefix is close and the
 * warp's version, without block barriers, is faster (the trade of lookback.cuh's
 * look_back_by_block; evidence: docs/design.md#tuning-evidence).
 * Returns, in the threads of key j < k, key j's exclusive prefix. */
static __device__ uint32_t pt_look_back_block(const pt_args &a, uint32_t tile,
                                              uint32_t (*s_first)[SC_PARTITION_MAX_KEYS],
                                              uint32_t (*s_sum)[SC_PARTITION_MAX_KEYS]) {
    const unsigned lane = sc_lane(), warp = sc_warp_id(), lk = a.lk, kp = 1u << lk;
    const unsigned j = threadIdx.x & (kp - 1), off = threadIdx.x >> lk;
    const uint32_t same = (0xffffffffu / ((1u << kp) - 1u)) << j; /* the warp's lanes of key j */
    uint32_t excl = 0;
    bool done = j >= a.k;
    for (long long window = (long long)tile - 1;; window -= (long long)(PT_BLOCK >> lk)) {
        const long long t = window - (long long)off;
        unsigned st;
        uint32_t val;
        do pt_read_state(a, done, t, j, &st, &val);
        while (__syncthreads_or(st == 0));
        /* key j's nearest prefix: the first thread of the key that read one */
        const uint32_t pre = __ballot_sync(SC_FULL_MASK, st == (unsigned)PT_PREFIX) & same;
        if (lane < kp)
            s_first[warp][j] = pre ? warp * SC_WARP + (unsigned)__ffs(pre) - 1 : PT_BLOCK;
        __syncthreads();
        unsigned stop = PT_BLOCK;
        for (unsigned w = 0; w < PT_WARPS; w++) stop = min(stop, s_first[w][j]);
        uint32_t v = threadIdx.x <= stop ? val : 0;
        for (unsigned d = kp; d < SC_WARP; d <<= 1) v += __shfl_xor_sync(SC_FULL_MASK, v, d);
        if (lane < kp) s_sum[warp][j] = v;
        __syncthreads();
        for (unsigned w = 0; w < PT_WARPS; w++) excl += s_sum[w][j];
        done = done || stop < PT_BLOCK;
        if (!__syncthreads_or(!done))
            break; /* also orders this round's reads before the next writes */
    }
    return excl;
}

/* Thread j < k, after the look-back: publish key j's inclusive prefix and the output element of
 * the tile's slots of key j: slot s goes to s_dst[j] + s (group: the spec's base of group j;
 * excl: key j's elements in the tiles before; s - seg: the rank inside the tile's run). */
static __device__ __forceinline__ void pt_publish(const pt_args &a, uint32_t tile, unsigned j,
                                                  uint32_t group, uint32_t excl, uint32_t total,
                                                  uint32_t seg, uint32_t *s_dst) {
    if (tile != 0) pt_store(a.status + (size_t)tile * a.k + j, PT_PREFIX << 32 | (excl + total));
    s_dst[j] = group + excl - seg; /* mod 2^32: a slot s >= seg adds it back */
}

static __device__ __forceinline__ uint32_t pt_word_elem(const pt_args &a, uint32_t q) {
    return a.wpe == 1 ? q : __umulhi(q, a.magic);
}

/* Word q of the tile's slots: its source word in `in` (tile base `base`), its place in `out`
 * (slot s of key j goes to element s_dst[j] + s). */
template <typename W>
static __device__ __forceinline__ const W *pt_src(const pt_args &a, const uint16_t *s_src,
                                                  size_t base, uint32_t q) {
    const uint32_t s = pt_word_elem(a, q), r = q - s * a.wpe;
    return (const W *)(a.in + (base + s_src[s]) * a.elem_size) + r;
}
template <typename W>
static __device__ __forceinline__ W *pt_dst(const pt_args &a, const uint8_t *s_key,
                                            const uint32_t *s_dst, uint32_t q) {
    const uint32_t s = pt_word_elem(a, q), r = q - s * a.wpe;
    const uint32_t e = s_dst[s_key[s]] + s; /* < n: the element's output slot */
    return (W *)(a.out + (size_t)e * a.elem_size) + r;
}

/* The tile's ranks (the spec's rank_key[i] inside the tile): each thread's 16 keys (tile
 * elements 16 t .. 16 t + 15) as bit planes, their counts per key packed in 16-bit counters
 * (two keys a word), one exclusive block scan of the counters, the tile's runs by key (run j
 * starts at slot seg_j). Every element gets its slot: the thread's first slot for its key plus
 * the keys equal to it before it in the thread (a popcount of the plane bits below). w, valid:
 * the thread's keys from pt_load_keys<true>. put(e, element, slot) places the thread's key e
 * (tile element `element`) at its slot: the element itself (staged) or its index (gathered);
 * s_key[slot] = the key. Publishes the tile's counts (tile 0: its prefixes); thread j < k gets
 * key j's count and run start. Returns the tile's elements (those below n). */
template <unsigned NB, typename PUT>
static __device__ __forceinline__ uint32_t pt_rank(const pt_args &a, uint32_t tile,
                                                   const uint32_t w[4], uint32_t valid, PUT put,
                                                   uint8_t *s_key, uint32_t (*s_warp)[PT_WORDS],
                                                   uint32_t *my_total, uint32_t *my_seg) {
    constexpr unsigned KP = 1u << NB, NW = KP > 1 ? KP / 2 : 1; /* counter words */
    const unsigned lane = sc_lane(), warp = sc_warp_id(), k = a.k;
    const unsigned nw = (k + 1) / 2; /* counter words in use */
    uint32_t p[4];
#pragma unroll
    for (unsigned i = 0; i < 4; i++) p[i] = i < NB ? pt_plane(w, i) : 0u;
    uint32_t c[NW]; /* key j: bits 16 (j & 1) .. of c[j >> 1] */
#pragma unroll
    for (unsigned x = 0; x < NW; x++) c[x] = 0;
#pragma unroll
    for (unsigned j = 0; j < KP; j++)
        if (j < k) c[j >> 1] += (uint32_t)__popc(pt_match<NB>(p, j, valid)) << (16 * (j & 1));
    /* exclusive scan of the counters over the tile's threads (each field stays <= PT_TILE):
     * inclusive warp scans, then the warps before; tot: the tile's totals */
    uint32_t tot[NW];
#pragma unroll
    for (unsigned x = 0; x < NW; x++)
        if (x < nw) {
            uint32_t v = c[x];
#pragma unroll
            for (unsigned d = 1; d < SC_WARP; d <<= 1) {
                const uint32_t u = __shfl_up_sync(SC_FULL_MASK, v, d);
                if (lane >= d) v += u;
            }
            if (lane == SC_WARP - 1) s_warp[warp][x] = v;
            c[x] = v - c[x];
        }
    __syncthreads();
#pragma unroll
    for (unsigned x = 0; x < NW; x++) {
        uint32_t before = 0, all = 0;
        if (x < nw)
            for (unsigned v = 0; v < PT_WARPS; v++) {
                const uint32_t u = s_warp[v][x];
                before += v < warp ? u : 0;
                all += u;
            }
        c[x] += before;
        tot[x] = all;
    }
    uint32_t seg = 0;
    *my_total = *my_seg = 0;
#pragma unroll
    for (unsigned j = 0; j < KP; j++)
        if (j < k) {
            const uint32_t t = tot[j >> 1] >> (16 * (j & 1)) & 0xffffu;
            c[j >> 1] += seg << (16 * (j & 1)); /* now the slot of the thread's first key j */
            if (threadIdx.x == j) {
                *my_total = t;
                *my_seg = seg;
            }
            seg += t;
        }
    if (threadIdx.x < k)
        pt_store(a.status + (size_t)tile * k + threadIdx.x,
                 (tile == 0 ? PT_PREFIX : PT_AGGREGATE) << 32 | *my_total);
#pragma unroll
    for (unsigned e = 0; e < PT_KEYS; e++) {
        const unsigned bit = (e & 3) + 8 * (e >> 2);
        if (valid >> bit & 1u) {
            const unsigned key =
                w[e & 3] >> (8 * (e >> 2)) & 0xffu; /* < k: the histogram checked */
            uint32_t word = c[0];
#pragma unroll
            for (unsigned x = 1; x < NW; x++)
                if ((key >> 1) == x) word = c[x];
            const uint32_t slot =
                (word >> (16 * (key & 1)) & 0xffffu) +
                (uint32_t)__popc(pt_match<NB>(p, key, valid) & ((1u << bit) - 1u));
            put(e, threadIdx.x * PT_KEYS + e, slot);
            s_key[slot] = (uint8_t)key;
        }
    }
    return seg;
}

/* The tile's per-key offsets into s_dst (by warp 0, or by the whole block: BLOCK_LB); every
 * thread of the block calls it. The caller synchronises before it reads s_dst. */
template <bool BLOCK_LB>
static __device__ __forceinline__ void
pt_offsets(const pt_args &a, uint32_t tile, uint32_t group, uint32_t my_total, uint32_t my_seg,
           uint32_t *s_dst, uint32_t (*s_first)[SC_PARTITION_MAX_KEYS],
           uint32_t (*s_sum)[SC_PARTITION_MAX_KEYS]) {
    if (BLOCK_LB) {
        const uint32_t excl = tile == 0 ? 0u : pt_look_back_block(a, tile, s_first, s_sum);
        if (threadIdx.x < a.k)
            pt_publish(a, tile, threadIdx.x, group, excl, my_total, my_seg, s_dst);
    } else if (sc_warp_id() == 0) {
        const uint32_t excl = tile == 0 ? 0u : pt_look_back(a, tile);
        /* lane j < k holds key j (k' >= k) of the tile itself */
        if (threadIdx.x < a.k)
            pt_publish(a, tile, threadIdx.x, group, excl, my_total, my_seg, s_dst);
    }
}

/* Each block, first: its tile by ticket (tiles start in launch order), the run-time length, the
 * bad-key flag and the group sizes, loaded together (one wait, not one after another); then
 * the counts (tile 0) and whether the tile has work: none after a bad key or past *d_n (later
 * tiles are empty too). Thread j < k gets the spec's base of group j (the groups before j). */
static __device__ __forceinline__ bool pt_tile(const pt_args &a, uint32_t *s_ctl, uint32_t *tile,
                                               uint32_t *n, uint32_t *group) {
    const uint32_t h = threadIdx.x < a.k ? a.head->hist[threadIdx.x] : 0u;
    if (threadIdx.x == 0) {
        const uint32_t bad = a.head->bad, len = sc_dev_count(a.d_n, a.n);
        s_ctl[0] = atomicAdd(&a.head->ticket, 1u);
        s_ctl[1] = len;
        s_ctl[2] = bad;
    }
    uint32_t all;
    *group = sc_warp_exclusive_scan(h, &all); /* meaningful in warp 0 */
    __syncthreads();
    *tile = s_ctl[0];
    *n = s_ctl[1];
    if (*tile == 0) pt_write_counts(a.head, a.k, a.d_counts);
    return !s_ctl[2] && (size_t)*tile * PT_TILE < *n;
}

/* single pass, gathered: rank the tile, gather the first words by slot (the elements' words
 * in `in`, read through the cache), find the offsets while they arrive, copy each key's run out
 * contiguously. For any element size: W is the copy word, PREF the words per thread gathered
 * before the look-back, BLOCK_LB the look-back by the whole block (few tiles per SM). */
template <unsigned NB, typename W, int PREF, bool BLOCK_LB>
__global__ void __launch_bounds__(PT_BLOCK, PT_GATHER_BLOCKS) pt_gather_pass_kernel(pt_args a) {
    __shared__ uint16_t s_src[PT_TILE]; /* tile slot s takes tile element s_src[s] */
    __shared__ uint8_t s_key[PT_TILE];  /* the key of slot s */
    __shared__ uint32_t s_warp[PT_WARPS][PT_WORDS];
    __shared__ uint32_t s_dst[SC_PARTITION_MAX_KEYS];
    __shared__ uint32_t s_first[PT_WARPS][SC_PARTITION_MAX_KEYS]; /* the block's look-back */
    __shared__ uint32_t s_sum[PT_WARPS][SC_PARTITION_MAX_KEYS];
    __shared__ uint32_t s_ctl[3];
    uint32_t tile, n, group, my_total, my_seg;
    if (!pt_tile(a, s_ctl, &tile, &n, &group)) return;
    const size_t base = (size_t)tile * PT_TILE;
    uint32_t w[4], valid;
    pt_load_keys<true>(a.keys, a.keys_vec, base + threadIdx.x * PT_KEYS, n, w, &valid);
    const uint32_t count = pt_rank<NB>(
        a, tile, w, valid,
        [&](unsigned, unsigned elem, uint32_t slot) { s_src[slot] = (uint16_t)elem; }, s_key,
        s_warp, &my_total, &my_seg);
    __syncthreads();

    const uint32_t words = count * a.wpe;
    W v[PREF];
#pragma unroll
    for (int r = 0; r < PREF; r++) {
        const uint32_t q = threadIdx.x + r * PT_BLOCK;
        if (q < words) v[r] = __ldg(pt_src<W>(a, s_src, base, q));
    }
    pt_offsets<BLOCK_LB>(a, tile, group, my_total, my_seg, s_dst, s_first, s_sum);
    __syncthreads();
    sc_block_copy_rest<W, PREF, PT_BLOCK>(
        v, words, [&](uint32_t q) { return pt_src<W>(a, s_src, base, q); },
        [&](uint32_t q) { return pt_dst<W>(a, s_key, s_dst, q); });
}

/* single pass, staged (elements of 1, 2, 4 or 8 bytes, E the element, pointers aligned to it):
 * each thread loads the 16 elements of its 16 keys together with them (one latency, not two one
 * after the other; 16-byte loads when `in` is aligned to 16), the ranking puts each element into
 * shared memory at its slot, and each key's run is written out contiguously from there. The
 * elements follow their keys' blocked order in registers, so no element-to-slot table is kept
 * (one shared store and one load an element less than loading them striped). */
template <unsigned NB, typename E, bool BLOCK_LB>
__global__ void __launch_bounds__(PT_BLOCK, NB <= 2 && sizeof(E) <= 4 ? PT_STAGED_BLOCKS : 1)
    pt_staged_pass_kernel(pt_args a) {
    __shared__ E s_data[PT_TILE];      /* the tile's elements by slot */
    __shared__ uint8_t s_key[PT_TILE]; /* the key of slot s */
    __shared__ uint32_t s_warp[PT_WARPS][PT_WORDS];
    __shared__ uint32_t s_dst[SC_PARTITION_MAX_KEYS];
    __shared__ uint32_t s_first[PT_WARPS][SC_PARTITION_MAX_KEYS];
    __shared__ uint32_t s_sum[PT_WARPS][SC_PARTITION_MAX_KEYS];
    __shared__ uint32_t s_ctl[3];
    uint32_t tile, n, group, my_total, my_seg;
    if (!pt_tile(a, s_ctl, &tile, &n, &group)) return;
    const size_t base = (size_t)tile * PT_TILE;
    const size_t first = base + threadIdx.x * PT_KEYS;
    uint32_t w[4], valid; /* the keys first: the ranks wait for them */
    pt_load_keys<true>(a.keys, a.keys_vec, first, n, w, &valid);
    constexpr unsigned Q = PT_KEYS * sizeof(E) / 16; /* 16-byte words of the thread's elements */
    union {
        uint4 q[Q];
        E e[PT_KEYS];
    } v;
    const E *in = (const E *)a.in + first;
    if (a.in_vec && first + PT_KEYS <= n) {
#pragma unroll
        for (unsigned q = 0; q < Q; q++) v.q[q] = __ldg((const uint4 *)in + q);
    } else {
#pragma unroll
        for (unsigned e = 0; e < PT_KEYS; e++) v.e[e] = first + e < n ? __ldg(in + e) : E();
    }
    const uint32_t count = pt_rank<NB>(
        a, tile, w, valid, [&](unsigned e, unsigned, uint32_t slot) { s_data[slot] = v.e[e]; },
        s_key, s_warp, &my_total, &my_seg);
    pt_offsets<BLOCK_LB>(a, tile, group, my_total, my_seg, s_dst, s_first, s_sum);
    __syncthreads();
    E *out = (E *)a.out;
#pragma unroll
    for (int r = 0; r < PT_KEYS; r++) {
        const uint32_t q = threadIdx.x + r * PT_BLOCK;
        if (q < count) out[s_dst[s_key[q]] + q] = s_data[q];
    }
}

/* Scratch of the call: the head, then `words` look-back words. */
static sc_status pt_scratch(sc_job *job, size_t words, size_t extra, pt_head **head,
                            uint64_t **status, void **rest) {
    void *t;
    size_t head_bytes = sizeof(pt_head), status_bytes = words * sizeof(uint64_t);
    size_t extra_at = (head_bytes + status_bytes + 255) & ~(size_t)255;
    sc_status s = sc_cuda_temp(job, extra_at + extra, &t);
    if (s != SC_OK) return s;
    *head = (pt_head *)t;
    *status = (uint64_t *)((char *)t + head_bytes);
    if (rest) *rest = (char *)t + extra_at;
    return SC_OK;
}

/* Where the counts go on the device: the caller's d_kept[0..k), else the head's own slots
 * past the histogram (read back by pt_finish). */
static uint32_t *pt_count_dst(sc_job *job, pt_head *head) {
    return job->opt.d_kept ? job->opt.d_kept : head->counts;
}

/* Host counts when asked for: one copy and a wait. */
static sc_status pt_finish(sc_job *job, pt_head *head) {
    if (!job->host_kept) return sc_cuda_timing_end(job);
    uint32_t c[SC_PARTITION_MAX_KEYS];
    cudaStream_t st = sc_cuda_stream(job);
    SC_CUDA_TRY(cudaMemcpyAsync(c, pt_count_dst(job, head), job->num_keys * sizeof(uint32_t),
                                cudaMemcpyDeviceToHost, st));
    SC_CUDA_TRY(cudaStreamSynchronize(st));
    if (c[0] == SC_BAD_LIST) return SC_ERR_INVALID_ARGUMENT;
    for (unsigned j = 0; j < job->num_keys; j++) job->part_counts[j] = c[j];
    return sc_cuda_timing_end(job);
}

static unsigned pt_grid(const sc_job *job, size_t n) {
    unsigned cap = (unsigned)sc_cuda_state_of(job->ctx)->sm_count * (unsigned)PT_GRID_BLOCKS;
    unsigned b = sc_cuda_blocks(n, PT_BLOCK);
    return b < cap ? b : cap;
}

/* Clear the head and the look-back words, then count the keys (16 a thread, grid-stride). */
static sc_status pt_histogram(sc_job *job, pt_head *head, size_t words) {
    cudaStream_t st = sc_cuda_stream(job);
    SC_CUDA_TRY(cudaMemsetAsync(head, 0, sizeof *head + words * sizeof(uint64_t), st));
    const unsigned cap = (unsigned)sc_cuda_state_of(job->ctx)->sm_count * PT_HIST_BLOCKS;
    const unsigned need = sc_cuda_blocks((job->n + PT_KEYS - 1) / PT_KEYS, PT_BLOCK);
    const unsigned grid = need < cap ? need : cap;
    const unsigned nb = pt_key_bits(job->num_keys);
    auto kernel = nb <= 2 ? pt_histogram_kernel<2> : pt_histogram_kernel<4>;
    kernel<<<grid, PT_BLOCK, 0, st>>>(job->keys, job->opt.d_n, (uint32_t)job->n, job->num_keys, nb,
                                      head);
    SC_CUDA_LAUNCHED();
    return SC_OK;
}

/* NB: the key bits the kernels are compiled for (k <= 2^NB): 2 up to 4 keys, else 4. */
template <typename W, int PREF, bool STAGE, unsigned NB>
static void pt_launch_nb(sc_job *job, const pt_args &a, unsigned tiles) {
    /* the block's look-back up to PT_LB_BLOCK_TILES tiles per SM, lookback.cuh's bound for
     * single-pass */
    const unsigned few = PT_LB_BLOCK_TILES * (unsigned)sc_cuda_state_of(job->ctx)->sm_count;
    cudaStream_t st = sc_cuda_stream(job);
    if constexpr (STAGE) {
        if (tiles <= few)
            pt_staged_pass_kernel<NB, W, true><<<tiles, PT_BLOCK, 0, st>>>(a);
        else
            pt_staged_pass_kernel<NB, W, false><<<tiles, PT_BLOCK, 0, st>>>(a);
    } else if (tiles <= few)
        pt_gather_pass_kernel<NB, W, PREF, true><<<tiles, PT_BLOCK, 0, st>>>(a);
    else
        pt_gather_pass_kernel<NB, W, PREF, false><<<tiles, PT_BLOCK, 0, st>>>(a);
}

template <typename W, int PREF, bool STAGE>
static sc_status pt_launch(sc_job *job, const pt_args &a, unsigned tiles) {
    if (a.nb <= 2)
        pt_launch_nb<W, PREF, STAGE, 2>(job, a, tiles);
    else
        pt_launch_nb<W, PREF, STAGE, 4>(job, a, tiles);
    SC_CUDA_LAUNCHED();
    return SC_OK;
}

extern "C" sc_status sc_cuda_partition_single_pass(sc_job *job) {
    const unsigned tiles = sc_cuda_blocks(job->n, PT_TILE);
    const size_t words = (size_t)tiles * job->num_keys;
    pt_head *head;
    uint64_t *status;
    sc_status s = pt_scratch(job, words, 0, &head, &status, NULL);
    if (s != SC_OK) return s;
    pt_args a;
    a.in = (const char *)job->in;
    a.keys = job->keys;
    a.out = (char *)job->out;
    a.n = (uint32_t)job->n;
    a.d_n = job->opt.d_n;
    a.k = job->num_keys;
    a.nb = pt_key_bits(a.k);
    a.lk = a.nb; /* k' = 2^nb */
    a.elem_size = (unsigned)job->elem_size;
    const unsigned wb = sc_cuda_word_bytes(job);
    a.wpe = a.elem_size / wb;
    a.magic = sc_cuda_word_magic(a.wpe);
    a.keys_vec = ((uintptr_t)job->keys & 15) == 0;
    a.in_vec = ((uintptr_t)job->in & 15) == 0;
    a.head = head;
    a.status = status;
    a.d_counts = pt_count_dst(job, head);
    sc_cuda_timing_begin(job);
    if ((s = pt_histogram(job, head, words)) != SC_OK) return s;
    sc_cuda_timing_phase(job, "histogram");
    /* Per copy word (the widest dividing the element size and both pointers):
     *   element of exactly 1, 2, 4 or 8 bytes: staged (the whole tile in order with its keys,
     *     16 elements a thread in registers, the tile in shared memory: 4096 * 8 bytes at most);
     *   16-byte words (elements of 16, 32, ... bytes) or elements of several words: gathered by
     *     slot, PREF words a thread before the look-back: 8 of 16 or 8 bytes (registers), 16 of
     *     the narrower words. */
    const bool staged = a.wpe == 1;
    switch (wb) {
    case 16:
        s = pt_launch<uint4, PT_PREF_16, false>(job, a, tiles);
        break;
    case 8:
        s = staged ? pt_launch<uint2, PT_PREF_8, true>(job, a, tiles)
                   : pt_launch<uint2, PT_PREF_8, false>(job, a, tiles);
        break;
    case 4:
        s = staged ? pt_launch<uint32_t, PT_PREF_4, true>(job, a, tiles)
                   : pt_launch<uint32_t, PT_PREF_4, false>(job, a, tiles);
        break;
    case 2:
        s = staged ? pt_launch<unsigned short, PT_PREF_2, true>(job, a, tiles)
                   : pt_launch<unsigned short, PT_PREF_2, false>(job, a, tiles);
        break;
    default:
        s = staged ? pt_launch<unsigned char, PT_PREF_1, true>(job, a, tiles)
                   : pt_launch<unsigned char, PT_PREF_1, false>(job, a, tiles);
    }
    if (s != SC_OK) return s;
    sc_cuda_timing_phase(job, "scatter");
    return pt_finish(job, head);
}

/* cub: sort keys: the key, or k past the end (sorted last); the values: the indices. */
__global__ void pt_sort_input_kernel(const uint8_t *keys, const uint32_t *d_n, uint32_t bound,
                                     unsigned k, uint8_t *sort_keys, uint32_t *index) {
    uint32_t n = sc_dev_count(d_n, bound);
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < bound;
         i += gridDim.x * blockDim.x) {
        sort_keys[i] = i < n ? keys[i] : (uint8_t)k;
        index[i] = i;
    }
}

/* cub: out[i] = in[index[i]] for the first *d_n sorted slots (no work after a bad key). */
__global__ void pt_gather_kernel(const char *in, const uint32_t *index, char *out,
                                 const uint32_t *d_n, uint32_t bound, unsigned elem_size,
                                 const pt_head *head, unsigned k, uint32_t *d_counts) {
    if (blockIdx.x == 0) pt_write_counts(head, k, d_counts);
    if (head->bad) return;
    uint32_t n = sc_dev_count(d_n, bound);
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sc_move_elem(out, i, in, index[i], elem_size);
}

extern "C" sc_status sc_cuda_partition_cub(sc_job *job) {
    const size_t n = job->n;
    if (n > (size_t)INT_MAX) return SC_ERR_UNSUPPORTED; /* CUB's item count is an int */
    int bits = 1;
    while ((1u << bits) <= job->num_keys) bits++; /* k itself (past the end) must fit */
    size_t cub_bytes = 0;
    SC_CUDA_TRY(cub::DeviceRadixSort::SortPairs(NULL, cub_bytes, (const uint8_t *)NULL,
                                                (uint8_t *)NULL, (const uint32_t *)NULL,
                                                (uint32_t *)NULL, (int)n, 0, bits));
    size_t arrays = ((2 * n + 255) & ~(size_t)255) + 2 * ((n * 4 + 255) & ~(size_t)255);
    pt_head *head;
    uint64_t *status;
    void *rest;
    sc_status s = pt_scratch(job, 0, arrays + cub_bytes, &head, &status, &rest);
    if (s != SC_OK) return s;
    uint8_t *k_in = (uint8_t *)rest, *k_out = k_in + n;
    uint32_t *v_in = (uint32_t *)((char *)rest + ((2 * n + 255) & ~(size_t)255));
    uint32_t *v_out = (uint32_t *)((char *)v_in + ((n * 4 + 255) & ~(size_t)255));
    void *cub_temp = (char *)rest + arrays;
    cudaStream_t st = sc_cuda_stream(job);
    sc_cuda_timing_begin(job);
    if ((s = pt_histogram(job, head, 0)) != SC_OK) return s;
    sc_cuda_timing_phase(job, "histogram");
    if (n) {
        pt_sort_input_kernel<<<pt_grid(job, n), PT_BLOCK, 0, st>>>(
            job->keys, job->opt.d_n, (uint32_t)n, job->num_keys, k_in, v_in);
        SC_CUDA_LAUNCHED();
        SC_CUDA_TRY(cub::DeviceRadixSort::SortPairs(cub_temp, cub_bytes, k_in, k_out, v_in, v_out,
                                                    (int)n, 0, bits, st));
    }
    sc_cuda_timing_phase(job, "sort");
    pt_gather_kernel<<<pt_grid(job, n), PT_BLOCK, 0, st>>>(
        (const char *)job->in, v_out, (char *)job->out, job->opt.d_n, (uint32_t)n,
        (unsigned)job->elem_size, head, job->num_keys, pt_count_dst(job, head));
    SC_CUDA_LAUNCHED();
    sc_cuda_timing_phase(job, "gather");
    return pt_finish(job, head);
}
