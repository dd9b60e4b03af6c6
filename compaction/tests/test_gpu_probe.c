/* test_gpu_probe: the probe of this build at sc_context_create passes on the test's device
 * (the build holds an image for it) and leaves no error detail; a context and the calling
 * thread report "" until a CUDA error happens. */
#include "test.h"

#include <string.h>

int main(void) {
    int checks = 0;
    sc_context *ctx = NULL;
    sc_status s = sc_context_create(SC_BACKEND_CUDA, &ctx);
    if (s == SC_ERR_NO_DEVICE || s == SC_ERR_UNSUPPORTED) {
        printf("test_gpu_probe: skipped (%s)\n", sc_status_string(s));
        return 77;
    }
    checks += 3;
    ASSERT_STATUS(s, SC_OK, "this build's probe on this device: %s", sc_last_error_detail(NULL));
    ASSERT_TRUE(strcmp(sc_last_error_detail(NULL), "") == 0, "'%s'", sc_last_error_detail(NULL));
    ASSERT_TRUE(ctx && strcmp(sc_last_error_detail(ctx), "") == 0, "fresh context");
    sc_context_destroy(ctx);
    /* A second context passes too (the device passed once: not probed again). */
    checks++;
    s = sc_context_create(SC_BACKEND_CUDA, &ctx);
    ASSERT_STATUS(s, SC_OK, "second context");
    sc_context_destroy(ctx);
    return test_finish("test_gpu_probe", checks);
}
