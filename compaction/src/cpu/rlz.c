/* rlz.c: not written yet. */
#include "cpu.h"

sc_status sc_cpu_rlz(sc_job *job) {
    (void)job;
    return SC_ERR_UNSUPPORTED;
}
