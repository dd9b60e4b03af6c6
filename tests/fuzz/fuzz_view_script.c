/* fuzz_view_script.c: the viewer's script reader (rc_script_load, `raycompact view --script`)
 * on the input as the file's text: every line is checked when the file is read (waits in
 * frames, samples or time, keys, drags, window sizes, screenshots), and a mistake is one line
 * that names its place. */
#include "fuzz_check.h"
#include "viewer/script.h"

#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char path[] = "/tmp/fuzz_view_script_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return 0;
    FILE *f = fdopen(fd, "wb");
    if (!f || fwrite(data, 1, size, f) != size) {
        if (f) fclose(f);
        unlink(path);
        return 0;
    }
    fclose(f);
    rc_script s;
    rc_error err;
    if (rc_script_load(path, &s, &err) == 0) {
        for (size_t i = 0; i < s.n; i++)
            if (s.steps[i].op == RC_SCRIPT_SCREENSHOT && !s.steps[i].path) abort();
        rc_script_free(&s);
    } else {
        fuzz_check_message("view script", err.msg);
    }
    unlink(path);
    return 0;
}
