/* atomic.cu: not written yet. */
#include "common.cuh"

extern "C" sc_status sc_cuda_atomic(sc_job *job)
{
    (void)job;
    return SC_ERR_UNSUPPORTED;
}
