/* test_status: every status has its own description, and the error detail is a string on
 * every backend and build (empty where no CUDA error happened). */
#include "test.h"

#include <string.h>

int main(void) {
    int checks = 0;
    const sc_status all[] = {SC_OK,
                             SC_ERR_INVALID_ARGUMENT,
                             SC_ERR_UNSUPPORTED,
                             SC_ERR_OUT_OF_MEMORY,
                             SC_ERR_NO_DEVICE,
                             SC_ERR_CUDA,
                             SC_ERR_UNKNOWN_ALGORITHM,
                             SC_ERR_UNSUPPORTED_DEVICE};
    const size_t n = sizeof all / sizeof all[0];
    for (size_t i = 0; i < n; i++) {
        for (size_t j = i + 1; j < n; j++) {
            checks++;
            ASSERT_TRUE(strcmp(sc_status_string(all[i]), sc_status_string(all[j])) != 0,
                        "statuses %zu and %zu share '%s'", i, j, sc_status_string(all[i]));
        }
    }
    checks++;
    ASSERT_TRUE(strstr(sc_status_string(SC_ERR_UNSUPPORTED_DEVICE), "kernel image") != NULL, "'%s'",
                sc_status_string(SC_ERR_UNSUPPORTED_DEVICE));
    sc_context *ctx = NULL;
    checks += 3;
    ASSERT_STATUS(sc_context_create(SC_BACKEND_CPU, &ctx), SC_OK, "cpu context");
    ASSERT_TRUE(ctx && strcmp(sc_last_error_detail(ctx), "") == 0, "cpu context detail");
    ASSERT_TRUE(sc_last_error_detail(NULL) != NULL, "thread detail");
    sc_context_destroy(ctx);
#ifndef SC_HAVE_CUDA
    checks++;
    ASSERT_STATUS(sc_context_create(SC_BACKEND_CUDA, &ctx), SC_ERR_UNSUPPORTED, "no CUDA built");
#endif
    return test_finish("test_status", checks);
}
