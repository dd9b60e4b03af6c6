/* redzone_block.cu: not written yet. */
#include "common.cuh"

extern "C" sc_status sc_cuda_redzone_block(sc_job *job)
{
    (void)job;
    return SC_ERR_UNSUPPORTED;
}
