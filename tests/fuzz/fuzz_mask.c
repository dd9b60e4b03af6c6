/* fuzz_mask.c: the PNG mask reader of `compact bench --pattern mask:FILE.png`, from memory. */
#include "../../compaction/bench/bench_image.h"
#include "fuzz_check.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char why[512];
    int w, h;
    unsigned char *px = bench_image_decode(data, size, &w, &h, why, sizeof why);
    if (px) {
        /* Touch every pixel, so that a short buffer is caught. */
        unsigned sum = 0;
        for (size_t i = 0; i < (size_t)w * (size_t)h; i++) sum += px[i];
        volatile unsigned sink = sum;
        (void)sink;
        if (w <= 0 || h <= 0) abort();
        bench_image_free(px);
    } else {
        fuzz_check_message("mask", why);
        /* No input is echoed here, so "(null)" can only be a NULL reason printed by %s. */
        if (strstr(why, "(null)")) {
            fprintf(stderr, "fuzz: mask: a reason of NULL: %s\n", why);
            abort();
        }
    }
    return 0;
}
