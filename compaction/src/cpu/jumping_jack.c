/* jumping_jack.c: not written yet. */
#include "cpu.h"

sc_status sc_cpu_jumping_jack(sc_job *job) {
    (void)job;
    return SC_ERR_UNSUPPORTED;
}
