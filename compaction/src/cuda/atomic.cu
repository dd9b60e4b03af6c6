/* atomic.cu: the unstable baseline, an append aggregated per block. Each block takes one chunk
 * of AT_CHUNK flags (16 a thread, one 16-byte load), counts the chunk's kept elements with a
 * warp-shuffle block scan, reserves that many output slots with one atomicAdd on a global
 * counter, and copies them there. The chunk's kept indices are listed in shared memory first,
 * so the gather from `in` and the store to `out` both run over consecutive words of whole
 * elements (16-, 8-, 4-, 2- or 1-byte words, whichever the size and pointers allow), and the
 * first words are gathered while the atomic is in flight. Chunks land in the order their
 * atomics win, so the output order varies from run to run. The counter is the kept-count slot
 * itself: it holds the count when the kernel ends.
 * GPU departure from the specification (cpu/atomic.c, one atomic per warp of 32): one per warp
 * serialises 2 million atomics on one counter at n = 2^26; one per block of 4096 flags does not.
 * Run-time length (opt.d_n): the grid is sized for the bound; blocks whose chunk lies past *d_n
 * return at once.
 * Traffic model (compact list --models; F = n flag bytes, E = element bytes, m kept, k removed):
 *   F + 2m*E (one pass), and one atomic on one counter per chunk of 4096 flags (16384 at
 * n = 2^26, far below what one L2 address serves in the pass's time).
 */
#include "common.cuh"
#include "primitives.cuh"
#include "tuning.cuh"

/* The launch shape, from k_atomic_tune (tuning.cuh; evidence: docs/design.md#tuning-evidence):
 * threads per block, and the copy words per thread gathered before the block learns its output
 * offset, by copy word: enough to keep each thread's loads in flight during the atomic (a 50 %
 * chunk of 4-byte elements is 2048 words: 8 a thread; 16-byte words carry 4x the bytes, so
 * fewer). */
static constexpr int AT_BLOCK = SC_TUNED(k_atomic_tune).block;
static constexpr int AT_PREF_16 = SC_TUNED(k_atomic_tune).pref16;
static constexpr int AT_PREF_8 = SC_TUNED(k_atomic_tune).pref8;
static constexpr int AT_PREF_4 = SC_TUNED(k_atomic_tune).pref4;
static constexpr int AT_PREF_2 = SC_TUNED(k_atomic_tune).pref2;
static constexpr int AT_PREF_1 = SC_TUNED(k_atomic_tune).pref1;
#define AT_FLAGS 16 /* flags per thread: one 16-byte load (structure: flag_mask) */
#define AT_CHUNK (AT_BLOCK * AT_FLAGS)

typedef struct at_args {
    const char *in;
    const uint8_t *flags;
    char *out;
    uint32_t n;          /* the bound */
    const uint32_t *d_n; /* run-time count, or NULL */
    unsigned elem_size;
    unsigned wpe;      /* copy words per element */
    uint32_t magic;    /* q / wpe == __umulhi(q, magic) for every q < 2^24 (wpe > 1) */
    int flags_vec;     /* flags is 16-byte aligned */
    uint32_t *counter; /* the kept-count slot, zero at the start */
} at_args;

/* Keep mask of the AT_FLAGS flags from `first`: one 16-byte load inside the stream, bytes at its
 * end or where the flags are not aligned. */
static __device__ __forceinline__ unsigned flag_mask(const at_args &a, uint32_t n, size_t first) {
    if (a.flags_vec && first + AT_FLAGS <= n) {
        uint4 f = __ldg((const uint4 *)(a.flags + first));
        return sc_nonzero_bytes16(f);
    }
    unsigned m = 0;
    for (unsigned b = 0; b < AT_FLAGS; b++)
        if (first + b < n && a.flags[first + b]) m |= 1u << b;
    return m;
}

/* Word q of the chunk's kept elements: element q / wpe of the list, word q % wpe of it. */
template <typename W>
static __device__ __forceinline__ const W *src_word(const at_args &a, const uint16_t *list,
                                                    size_t chunk_first, uint32_t q) {
    uint32_t j = a.wpe == 1 ? q : __umulhi(q, a.magic), r = q - j * a.wpe;
    return (const W *)(a.in + (chunk_first + list[j]) * a.elem_size) + r;
}
template <typename W>
static __device__ __forceinline__ W *dst_word(const at_args &a, size_t slot, uint32_t q) {
    uint32_t j = a.wpe == 1 ? q : __umulhi(q, a.magic), r = q - j * a.wpe;
    return (W *)(a.out + (slot + j) * a.elem_size) + r;
}

/* append: one chunk per block, one atomicAdd per block. */
template <typename W, int PREF>
__global__ void __launch_bounds__(AT_BLOCK) append_kernel(at_args a) {
    /* output slot j of the chunk takes chunk element s_list[j] */
    __shared__ uint16_t s_list[AT_CHUNK];
    __shared__ uint32_t s_warp[AT_BLOCK / SC_WARP + 1];
    __shared__ uint32_t s_slot;

    const uint32_t n = sc_dev_count(a.d_n, a.n);
    const size_t chunk_first = (size_t)blockIdx.x * AT_CHUNK;
    if (chunk_first >= n) return; /* past the run-time count: the whole block */
    unsigned mask = flag_mask(a, n, chunk_first + threadIdx.x * AT_FLAGS);
    uint32_t kept;
    uint32_t off = sc_block_scan_warps<AT_BLOCK>((uint32_t)__popc(mask), s_warp, &kept);
    if (kept == 0) return; /* the same in every thread */
    for (; mask; mask &= mask - 1)
        s_list[off++] = (uint16_t)(threadIdx.x * AT_FLAGS + __ffs(mask) - 1);
    __syncthreads();

    /* reserve the chunk's slots, and gather the first words while the atomic is in flight */
    uint32_t slot = 0;
    if (threadIdx.x == 0) slot = atomicAdd(a.counter, kept);
    const uint32_t words = kept * a.wpe;
    W v[PREF];
#pragma unroll
    for (int k = 0; k < PREF; k++) {
        uint32_t q = threadIdx.x + k * AT_BLOCK;
        if (q < words) v[k] = __ldg(src_word<W>(a, s_list, chunk_first, q));
    }
    if (threadIdx.x == 0) s_slot = slot;
    __syncthreads();
    const size_t base = s_slot;
    sc_block_copy_rest<W, PREF, AT_BLOCK>(
        v, words, [&](uint32_t q) { return src_word<W>(a, s_list, chunk_first, q); },
        [&](uint32_t q) { return dst_word<W>(a, base, q); });
}

template <typename W, int PREF> static sc_status launch(sc_job *job, const at_args &a) {
    append_kernel<W, PREF>
        <<<sc_cuda_blocks(job->n, AT_CHUNK), AT_BLOCK, 0, sc_cuda_stream(job)>>>(a);
    SC_CUDA_LAUNCHED();
    return SC_OK;
}

extern "C" sc_status sc_cuda_atomic(sc_job *job) {
    if (job->reserve) return sc_cuda_reserved(job); /* no temporary storage */
    at_args a;
    a.in = (const char *)job->in;
    a.flags = job->flags;
    a.out = (char *)job->out;
    a.n = (uint32_t)job->n;
    a.d_n = job->opt.d_n;
    a.elem_size = (unsigned)job->elem_size;
    unsigned w = sc_cuda_word_bytes(job);
    a.wpe = a.elem_size / w;
    a.magic = sc_cuda_word_magic(a.wpe);
    a.flags_vec = ((uintptr_t)job->flags & 15) == 0;
    a.counter = sc_cuda_count_slot(job);
    cudaStream_t stream = sc_cuda_stream(job);
    sc_cuda_timing_begin(job);
    SC_CUDA_TRY(cudaMemsetAsync(a.counter, 0, sizeof *a.counter, stream));
    sc_status s;
    switch (w) {
    case 16:
        s = launch<uint4, AT_PREF_16>(job, a);
        break;
    case 8:
        s = launch<uint2, AT_PREF_8>(job, a);
        break;
    case 4:
        s = launch<uint32_t, AT_PREF_4>(job, a);
        break;
    case 2:
        s = launch<unsigned short, AT_PREF_2>(job, a);
        break;
    default:
        s = launch<unsigned char, AT_PREF_1>(job, a);
    }
    if (s != SC_OK) return s;
    sc_cuda_timing_phase(job, "append");
    return sc_cuda_finish_count(job, a.counter);
}
