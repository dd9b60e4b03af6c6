/* fuzz_raycompact_cli.c: the option parsers of `raycompact render` and `raycompact bench`
 * (parse only: nothing is loaded or rendered). Input: NUL-separated arguments, the first
 * "render" or "bench". */
#include "../../app/cli.h"
#include "fuzz_args.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_args a;
    if (fuzz_args_split(&a, data, size) != 0) return 0;
    if (strcmp(a.argv[0], "bench") == 0)
        cli_bench_parse(a.argc, a.argv);
    else
        cli_render_parse(a.argc, a.argv);
    fuzz_args_free(&a);
    return 0;
}
