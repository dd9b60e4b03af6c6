/* fuzz_raycompact_cli.c: the option parsers of `raycompact render` and `raycompact bench`
 * (parse only: nothing is loaded or rendered; --schedule, --pool and --samples-per-frame among
 * them), and the viewer's --frame-ms value (rc_frame_ms_parse). Input: NUL-separated arguments,
 * the first "render", "bench" or "frame-ms" (then the value). */
#include "../../app/cli.h"
#include "../../app/viewer/budget.h"
#include "fuzz_args.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_args a;
    if (fuzz_args_split(&a, data, size) != 0) return 0;
    double ms;
    if (strcmp(a.argv[0], "frame-ms") == 0 && a.argc > 1) {
        if (rc_frame_ms_parse(a.argv[1], &ms) == 0 &&
            !(ms >= RC_FRAME_MS_MIN && ms <= RC_FRAME_MS_MAX))
            __builtin_trap(); /* an accepted budget is in range */
    } else if (strcmp(a.argv[0], "bench") == 0)
        cli_bench_parse(a.argc, a.argv);
    else
        cli_render_parse(a.argc, a.argv);
    fuzz_args_free(&a);
    return 0;
}
