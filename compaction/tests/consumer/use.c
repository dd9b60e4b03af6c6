/* use.c: a program of another project that compacts eight ints on the CPU. */
#include <raycompact/compaction.h>
#include <stdio.h>
int main(void) {
    int in[8] = {0, 1, 2, 3, 4, 5, 6, 7}, out[8];
    uint8_t fl[8] = {1, 0, 1, 0, 1, 0, 1, 0};
    sc_context *ctx;
    size_t kept = 0;
    sc_context_create(SC_BACKEND_CPU, &ctx);
    sc_status s = sc_compact_flagged(ctx, SC_ALGO_RLZ, in, fl, out, 8, 4, NULL, &kept);
    printf("%s kept %zu: %d %d %d %d (v%d.%d, detail '%s')\n", sc_status_string(s), kept, out[0],
           out[1], out[2], out[3], SC_VERSION_MAJOR, SC_VERSION_MINOR, sc_last_error_detail(ctx));
    sc_context_destroy(ctx);
    return s;
}
