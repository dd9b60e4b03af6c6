/* cub.cu: the vendor baseline, cub::DeviceSelect::Flagged (single pass, decoupled look-back,
 * tuned by NVIDIA). CUB moves typed items, so each element size the pointers allow is one
 * item type: 1, 2, 4, 8 and 16 bytes as integer vectors, 12, 32 and 64 bytes as structs of
 * words. Any other size (or a misaligned pointer) selects the kept indices with a counting
 * iterator, then gathers the elements with one more kernel.
 * Run-time length (opt.d_n): CUB takes its item count from the host and has no device-side
 * length, so the call runs over the bound with a flag iterator that reads 0 past *d_n: cub with
 * d_n costs the bound, not *d_n.
 * Traffic model (compact list --models; F = n flag bytes, E = element bytes, m kept, k removed):
 *   F + n*E + m*E (one pass: flags, every element, the kept written).
 */
#include "common.cuh"
#include "primitives.cuh"
#include "tuning.cuh"

#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

template <typename W, int N> struct sc_words { W w[N]; };

/* The gather's grid-stride launch: threads per block, blocks per SM (k_cub_tune in tuning.cuh;
 * evidence: docs/design.md#tuning-evidence). */
static constexpr int CUB_GATHER_THREADS = SC_TUNED(k_cub_tune).threads;
static constexpr int CUB_GATHER_BLOCKS = SC_TUNED(k_cub_tune).blocks;

/* select (index path): out[j] = in[index[j]] for every j < *count. */
__global__ void gather_kernel(const void *in, const uint32_t *index, const uint32_t *count,
                              void *out, unsigned elem_size) {
    uint32_t kept = *count;
    for (size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x; j < kept;
         j += (size_t)gridDim.x * blockDim.x)
        sc_move_elem(out, (uint32_t)j, in, index[j], elem_size);
}

/* Flag i as CUB reads it with opt.d_n: the caller's flag below *d_n, 0 from there to the bound. */
struct sc_flags_upto {
    const uint8_t *flags;
    const uint32_t *d_n;
    __host__ __device__ uint8_t operator()(uint32_t i) const {
#ifdef __CUDA_ARCH__
        return i < *d_n ? flags[i] : (uint8_t)0;
#else
        (void)i;
        return 0; /* never called on the host */
#endif
    }
};

typedef thrust::transform_iterator<sc_flags_upto, thrust::counting_iterator<uint32_t>> sc_upto_it;

static sc_upto_it flags_upto(const sc_job *job) {
    sc_flags_upto f = {job->flags, job->opt.d_n};
    return sc_upto_it(thrust::counting_iterator<uint32_t>(0), f);
}

/* One DeviceSelect::Flagged call (temp NULL: the size query only; the item pointers give the
 * types), with the caller's flags or, with opt.d_n, the flags cut at the run-time count. */
template <typename InT, typename OutT>
static sc_status select(sc_job *job, void *temp, size_t *bytes, InT in, OutT out,
                        uint32_t *d_count) {
    if (job->opt.d_n)
        SC_CUDA_TRY(cub::DeviceSelect::Flagged(temp, *bytes, in, flags_upto(job), out, d_count,
                                               (int64_t)job->n, sc_cuda_stream(job)));
    else
        SC_CUDA_TRY(cub::DeviceSelect::Flagged(temp, *bytes, in, job->flags, out, d_count,
                                               (int64_t)job->n, sc_cuda_stream(job)));
    return SC_OK;
}

/* Temporary storage of the index path: the index array, then CUB's own. */
static size_t index_head(const sc_job *job) {
    return ((job->n ? job->n : 1) * sizeof(uint32_t) + 255) & ~(size_t)255;
}
static sc_status index_bytes(sc_job *job, uint32_t *d_count, size_t *bytes) {
    thrust::counting_iterator<uint32_t> first(0);
    *bytes = 0;
    return select(job, NULL, bytes, first, (uint32_t *)NULL, d_count);
}

template <typename T> static sc_status select_typed(sc_job *job, uint32_t *d_count) {
    const T *in = (const T *)job->in;
    T *out = (T *)job->out;
    size_t bytes = 0, want, head_bytes = 0;
    void *temp;
    sc_status s = select(job, NULL, &bytes, in, out, d_count);
    want = bytes;
    /* sc_context_reserve: misaligned pointers would take the index path; cover it too */
    if (s == SC_OK && job->reserve) s = index_bytes(job, d_count, &head_bytes);
    if (s == SC_OK && job->reserve && index_head(job) + head_bytes > want)
        want = index_head(job) + head_bytes;
    if (s == SC_OK) s = sc_cuda_temp(job, want, &temp);
    if (s != SC_OK) return s;
    sc_cuda_timing_begin(job);
    return select(job, temp, &bytes, in, out, d_count);
}

/* Any size: select the indices of the kept elements (at the head of the temporary storage),
 * then gather. */
static sc_status select_indices(sc_job *job, uint32_t *d_count) {
    thrust::counting_iterator<uint32_t> first(0);
    size_t head = index_head(job);
    size_t bytes;
    void *temp;
    sc_status s = index_bytes(job, d_count, &bytes);
    if (s == SC_OK) s = sc_cuda_temp(job, head + bytes, &temp);
    if (s != SC_OK) return s;
    uint32_t *index = (uint32_t *)temp;
    sc_cuda_timing_begin(job);
    s = select(job, (char *)temp + head, &bytes, first, index, d_count);
    if (s != SC_OK) return s;
    const sc_cuda_state *st = sc_cuda_state_of(job->ctx);
    gather_kernel<<<st->sm_count * CUB_GATHER_BLOCKS, CUB_GATHER_THREADS, 0, sc_cuda_stream(job)>>>(
        job->in, index, d_count, job->out, (unsigned)job->elem_size);
    SC_CUDA_LAUNCHED();
    return SC_OK;
}

/* 1 if both pointers are aligned to `a` bytes. */
static int aligned(const sc_job *job, uintptr_t a) {
    return !(((uintptr_t)job->in | (uintptr_t)job->out) & (a - 1));
}

static sc_status run(sc_job *job, uint32_t *d_count) {
    size_t es = job->elem_size;
    if (es == 1) return select_typed<uint8_t>(job, d_count);
    if (es == 2 && aligned(job, 2)) return select_typed<uint16_t>(job, d_count);
    if (es == 4 && aligned(job, 4)) return select_typed<uint32_t>(job, d_count);
    if (es == 8 && aligned(job, 8)) return select_typed<uint2>(job, d_count);
    if (es == 12 && aligned(job, 4)) return select_typed<sc_words<uint32_t, 3>>(job, d_count);
    if (es == 16 && aligned(job, 16)) return select_typed<uint4>(job, d_count);
    if (es == 32 && aligned(job, 16)) return select_typed<sc_words<uint4, 2>>(job, d_count);
    if (es == 64 && aligned(job, 16)) return select_typed<sc_words<uint4, 4>>(job, d_count);
    return select_indices(job, d_count);
}

extern "C" sc_status sc_cuda_cub(sc_job *job) {
    uint32_t *d_count = sc_cuda_count_slot(job);
    sc_status s = run(job, d_count);
    if (s != SC_OK) return s;
    sc_cuda_timing_phase(job, "select");
    return sc_cuda_finish_count(job, d_count);
}
