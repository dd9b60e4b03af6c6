/* cub.cu: not written yet. */
#include "common.cuh"

extern "C" sc_status sc_cuda_cub(sc_job *job)
{
    (void)job;
    return SC_ERR_UNSUPPORTED;
}
