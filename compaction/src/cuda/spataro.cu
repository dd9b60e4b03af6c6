/* spataro.cu: not written yet. */
#include "common.cuh"

extern "C" sc_status sc_cuda_spataro(sc_job *job)
{
    (void)job;
    return SC_ERR_UNSUPPORTED;
}
