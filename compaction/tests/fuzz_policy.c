/* fuzz_policy.c: libFuzzer harness for auto's policy-table parser (sc_policy_check), for both
 * backends. Built with -DRAYCOMPACT_FUZZ=ON and clang; run as
 *     build/compaction/tests/fuzz_policy -max_total_time=60 NEW_DIR compaction/tests/fuzz_corpus
 * Any answer but SC_OK or SC_ERR_POLICY (or a crash, a leak, an out-of-bounds read) is a bug. */
#include "raycompact/compaction.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char msg[256];
    for (int b = SC_BACKEND_CPU; b < SC_BACKEND_COUNT; b++) {
        sc_status s = sc_policy_check((const char *)data, size, (sc_backend)b, msg, sizeof msg);
        if (s != SC_OK && s != SC_ERR_POLICY) abort();
    }
    return 0;
}
