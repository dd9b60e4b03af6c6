/* redzone_block.c: not written yet. */
#include "cpu.h"

sc_status sc_cpu_redzone_block(sc_job *job) {
    (void)job;
    return SC_ERR_UNSUPPORTED;
}
