/* lookback.cuh: the decoupled look-back of Merrill & Garland 2016 ("Single-pass Parallel Prefix
 * Scan with Decoupled Look-back"), shared by the kernels that take their tile's offset from the
 * tiles before it in one pass: single_pass.cu (compaction) and scan_scatter.cu (its scan).
 * Tile states, epochs and the control word are described at SC_LB_* (common.cuh); the storage
 * comes from sc_cuda_lookback_begin. Every block calls lb_begin first (its tile by ticket, in
 * launch order), publishes its aggregate with lb_store, looks back (look_back_warp, or
 * look_back_block with many tiles resident at once), and calls lb_end last with every thread.
 */
#pragma once

#include "common.cuh"
#include "primitives.cuh"
#include "tuning.cuh"

static __device__ __forceinline__ uint64_t lb_load(const uint64_t *p) {
    uint64_t v;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

/* Thread 0 of each block, first: this call's epoch and the block's tile, both from one 64-bit
 * atomic on the control word (epoch << 32 | ticket). The block that draws the last ticket knows
 * every block of the call holds its epoch, since each drew it with its ticket: it resets the
 * ticket for the next call (which the stream starts after this kernel) and advances the epoch.
 * In the call whose epoch is SC_LB_EPOCH_MAX the epoch stays, and lb_end clears.
 * One L2 round trip: a separate epoch load, fence and ticket atomic cost three, and two fences
 * (evidence: docs/design.md#tuning-evidence). */
static_assert(SC_LB_CTL_TICKET % 2 == 0 && SC_LB_CTL_EPOCH == SC_LB_CTL_TICKET + 1,
              "the ticket and the epoch form one aligned 64-bit word, the ticket its low half");
static __device__ __forceinline__ unsigned long long *lb_word(const sc_cuda_lookback &lb) {
    return (unsigned long long *)(lb.d_ctl + SC_LB_CTL_TICKET);
}
static __device__ __forceinline__ void lb_begin(const sc_cuda_lookback &lb, uint32_t *tile,
                                                uint32_t *epoch) {
    const unsigned long long w = atomicAdd(lb_word(lb), 1ull);
    const uint32_t t = (uint32_t)w, e = (uint32_t)(w >> 32);
    if (t == gridDim.x - 1)
        atomicExch(lb_word(lb), (unsigned long long)(e < SC_LB_EPOCH_MAX ? e + 1 : e) << 32);
    *tile = t;
    *epoch = e;
}

/* Every thread, last: in the call that used the last epoch, the last block to finish (no block
 * reads a tile state any more) clears every state and restarts the epochs at 0, so a state left
 * by a call 2^30 calls ago can never read as this epoch's. Other calls do nothing here. */
static __device__ __forceinline__ void lb_end(const sc_cuda_lookback &lb, uint32_t epoch,
                                              uint32_t *s_flag) {
    if (epoch != SC_LB_EPOCH_MAX) return;
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        *s_flag = atomicAdd(lb.d_ctl + SC_LB_CTL_DONE, 1u) == gridDim.x - 1;
        __threadfence();
    }
    __syncthreads();
    if (!*s_flag) return;
    for (uint32_t i = threadIdx.x; i < lb.words; i += blockDim.x) lb.d_status[i] = 0;
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        lb.d_ctl[SC_LB_CTL_DONE] = 0;
        atomicExch(lb_word(lb), 0ull); /* epoch 0, ticket 0 */
    }
}

/* Publish a tile state; status and value share one word, so no fence is needed. */
static __device__ __forceinline__ void lb_store(const sc_cuda_lookback &lb, uint32_t epoch,
                                                uint32_t tile, unsigned status, uint32_t value) {
    uint64_t w = (uint64_t)epoch << 34 | (uint64_t)status << 32 | value;
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(lb.d_status + tile), "l"(w)
                 : "memory");
}

/* State of tile t as (status, value); 0 = not ready. Before tile 0: an empty prefix. */
static __device__ __forceinline__ void lb_read(const sc_cuda_lookback &lb, uint32_t epoch,
                                               long long t, unsigned *status, uint32_t *value) {
    *status = SC_LB_PREFIX;
    *value = 0;
    if (t >= 0) {
        uint64_t w = lb_load(lb.d_status + t);
        *status = (uint32_t)(w >> 34) == epoch ? (unsigned)(w >> 32) & 3u : 0u;
        *value = (uint32_t)w;
    }
}

/* Look-back by one warp: lane l inspects tile (window - l); wait until the 32 states are
 * ready, add the aggregates up to the nearest inclusive prefix, or all 32 and move the window.
 * Returns the tile's exclusive prefix and publishes its inclusive one. */
static __device__ uint32_t look_back_warp(const sc_cuda_lookback &lb, uint32_t epoch, uint32_t tile,
                                          uint32_t agg) {
    unsigned lane = sc_lane(), status;
    uint32_t excl = 0, value;
    for (long long window = (long long)tile - 1;; window -= SC_WARP) {
        do lb_read(lb, epoch, window - lane, &status, &value);
        while (__any_sync(SC_FULL_MASK, status == 0));
        unsigned prefixes = __ballot_sync(SC_FULL_MASK, status == SC_LB_PREFIX);
        unsigned stop = prefixes ? (unsigned)__ffs(prefixes) - 1 : SC_WARP - 1;
        excl += sc_warp_sum(lane <= stop ? value : 0);
        if (prefixes) break;
    }
    if (lane == 0) lb_store(lb, epoch, tile, SC_LB_PREFIX, excl + agg);
    return excl;
}

/* The same look-back by the whole block, BLOCK states per round: when the whole grid is
 * resident the tiles reach their look-back together, few prefixes exist yet, and a warp would walk
 * tile / 32 rounds back to tile 0 where the block needs tile / BLOCK. With many waves the
 * nearest prefix is close and the warp's version, without block barriers, is faster. */
template <unsigned BLOCK>
static __device__ uint32_t look_back_block(const sc_cuda_lookback &lb, uint32_t epoch,
                                           uint32_t tile, uint32_t agg, uint32_t *s_red) {
    unsigned status;
    uint32_t excl = 0, value;
    for (long long window = (long long)tile - 1;; window -= BLOCK) {
        do lb_read(lb, epoch, window - threadIdx.x, &status, &value);
        while (__syncthreads_or(status == 0));
        unsigned prefixes = __ballot_sync(SC_FULL_MASK, status == SC_LB_PREFIX);
        if (sc_lane() == 0)
            s_red[sc_warp_id()] = prefixes ? sc_warp_id() * SC_WARP + __ffs(prefixes) - 1 : BLOCK;
        __syncthreads();
        unsigned stop = BLOCK;
        for (unsigned w = 0; w < BLOCK / SC_WARP; w++) stop = min(stop, s_red[w]);
        __syncthreads();
        uint32_t sum;
        sc_block_scan_warps<BLOCK>(threadIdx.x <= stop ? value : 0, s_red, &sum);
        excl += sum;
        if (stop < BLOCK) break;
    }
    if (threadIdx.x == 0) lb_store(lb, epoch, tile, SC_LB_PREFIX, excl + agg);
    return excl;
}

/* The tile's exclusive offset in every thread of the block, after its aggregate was published:
 * BLOCK_LB the block's look-back, else warp 0's (s_red: BLOCK / 32 + 1 words; s_excl: one word
 * for warp 0 to hand its result over). Tile 0 looks at nothing. */
template <unsigned BLOCK, bool BLOCK_LB>
static __device__ __forceinline__ uint32_t look_back_tile(const sc_cuda_lookback &lb,
                                                          uint32_t epoch, uint32_t tile,
                                                          uint32_t agg, uint32_t *s_red,
                                                          uint32_t *s_excl) {
    if (BLOCK_LB) return tile > 0 ? look_back_block<BLOCK>(lb, epoch, tile, agg, s_red) : 0u;
    if (threadIdx.x < SC_WARP) {
        uint32_t e = tile == 0 ? 0 : look_back_warp(lb, epoch, tile, agg);
        if (threadIdx.x == 0) *s_excl = e;
    }
    __syncthreads();
    return *s_excl;
}

/* Host: the block's look-back for grids of up to SC_LB_BLOCK_TILES tiles per SM, the warp's
 * from there on (k_lookback_tune in tuning.cuh; evidence: docs/design.md#tuning-evidence). */
static constexpr unsigned SC_LB_BLOCK_TILES = SC_TUNED(k_lookback_tune).block_tiles;
static inline bool look_back_by_block(const sc_job *job, size_t tiles) {
    return tiles <= SC_LB_BLOCK_TILES * (size_t)sc_cuda_state_of(job->ctx)->sm_count;
}
