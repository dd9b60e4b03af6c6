/* single_pass.cu: not written yet. */
#include "common.cuh"

extern "C" sc_status sc_cuda_single_pass(sc_job *job)
{
    (void)job;
    return SC_ERR_UNSUPPORTED;
}
