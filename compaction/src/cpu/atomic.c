/* atomic.c: not written yet. */
#include "cpu.h"

sc_status sc_cpu_atomic(sc_job *job) {
    (void)job;
    return SC_ERR_UNSUPPORTED;
}
