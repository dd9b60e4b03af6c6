/* test_gpu_oom.c: out of GPU memory is a clear one-line error, never a crash or a lost file.
 * The test holds all but HEADROOM of the device's free memory, as another process sharing the
 * GPU would, then asks for a stream that needs more:
 *   - `raycompact render --backend cuda` exits non-zero with one line that names the memory
 *     the stream needs (more than is free), and leaves an existing output file as it was;
 *   - `raycompact bench` does the same for one algorithm and for `--algos all` (no run
 *     quietly skipped), and leaves an existing --json file as it was;
 *   - in this process, rc_renderer_create fails with that message; once the memory is given
 *     back, the same settings create a renderer that renders, so the failure left nothing
 *     broken behind.
 * Exits 77 (skipped) without a usable CUDA device. Run alone (RUN_SERIAL): it starves every
 * other user of the GPU while it runs.
 * Usage: test_gpu_oom RAYCOMPACT SCENE SCRATCH_DIR */
#include "rc_test.h"
#include "wavefront/compact.h"
#include "out_path.h"
#include "read_file.h"

#include <cuda_runtime_api.h>
#include <string.h>
#include <sys/stat.h>

/* Left free: room for a child's CUDA context, too little for the stream asked for below. */
#define HEADROOM ((size_t)1 << 30)
#define SIDE     4096 /* 4096^2 paths in payload mode need about 2.5 GiB */
#define MAX_HOG  512
#define GOOD     "a good file that a failed run must not touch\n"

static void *hog[MAX_HOG];
static int num_hog;

/* Allocate device memory until about `keep` bytes are left free; returns what is free. */
static size_t hold_all_but(size_t keep) {
    size_t free_b = 0, total_b = 0;
    size_t chunk = (size_t)4 << 30;
    while (num_hog < MAX_HOG && cudaMemGetInfo(&free_b, &total_b) == cudaSuccess &&
           free_b > keep + ((size_t)64 << 20)) {
        size_t want = free_b - keep < chunk ? free_b - keep : chunk;
        if (cudaMalloc(&hog[num_hog], want) == cudaSuccess) {
            num_hog++;
        } else {
            (void)cudaGetLastError();
            if ((chunk /= 2) < ((size_t)64 << 20)) break;
        }
    }
    (void)cudaMemGetInfo(&free_b, &total_b);
    return free_b;
}

static void give_back(void) {
    while (num_hog > 0) cudaFree(hog[--num_hog]);
}

static void write_file(const char *path, const char *text) {
    rc_error err;
    if (rc_write_file(path, text, strlen(text), &err) != 0) fprintf(stderr, "%s\n", err.msg);
}

/* The file's contents (at most cap - 1 bytes), "" if it cannot be read. */
static const char *read_text(const char *path, char *buf, size_t cap) {
    char *data = NULL;
    size_t len = 0;
    rc_error err;
    buf[0] = '\0';
    if (rc_read_file(path, 1u << 20, &data, &len, &err) == 0) snprintf(buf, cap, "%s", data);
    free(data);
    return buf;
}

static int count_lines(const char *s) {
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

/* The message names what the stream needs and what is free, and the first exceeds the second. */
static void check_message(const char *what, const char *msg) {
    const char *p = strstr(msg, "out of GPU memory");
    CHECK(p != NULL, "%s: no 'out of GPU memory' in: %s", what, msg);
    if (!p) return;
    const char *needs = strstr(p, " needs ");
    const char *are = strstr(p, " MiB, ");
    unsigned long need_mib = needs ? strtoul(needs + 7, NULL, 10) : 0;
    unsigned long free_mib = are ? strtoul(are + 6, NULL, 10) : 0;
    CHECK(needs && are && need_mib > free_mib, "%s: needs %lu MiB, %lu free: %s", what, need_mib,
          free_mib, msg);
}

/* Run `raycompact ARGS`, stderr to DIR/err.txt; the exit code, its stderr in err. */
static int run_cli(const char *exe, const char *dir, const char *args, char *err, size_t cap) {
    char cmd[4096], path[1024];
    snprintf(path, sizeof path, "%s/err.txt", dir);
    snprintf(cmd, sizeof cmd, "'%s' %s >/dev/null 2>'%s'", exe, args, path);
    int st = system(cmd);
    read_text(path, err, cap);
    remove(path);
    return st == -1 ? -1 : (st >> 8) & 0xff;
}

static void cli_cases(const char *exe, const char *scene, const char *dir) {
    char out[1024], json[1024], args[2048], err[4096], buf[256];
    snprintf(out, sizeof out, "%s/image.png", dir);
    snprintf(json, sizeof json, "%s/bench.json", dir);
    write_file(out, GOOD);
    write_file(json, GOOD);

    snprintf(args, sizeof args,
             "render --scene '%s' --backend cuda --width %d --height %d --spp 1 "
             "--mode payload --algo single-pass --out '%s'",
             scene, SIDE, SIDE, out);
    int rc = run_cli(exe, dir, args, err, sizeof err);
    printf("  render: exit %d: %s", rc, err);
    CHECK(rc != 0, "render out of GPU memory exited 0");
    CHECK(count_lines(err) == 1, "render: %d lines on stderr, want 1", count_lines(err));
    check_message("render", err);
    CHECK(strcmp(read_text(out, buf, sizeof buf), GOOD) == 0, "render changed %s", out);

    const char *algos[] = {"single-pass", "all"};
    for (int i = 0; i < 2; i++) {
        snprintf(args, sizeof args,
                 "bench --scene '%s' --backend cuda --width %d --height %d --frames 1 "
                 "--warmup 0 --modes payload --algos %s --json '%s'",
                 scene, SIDE, SIDE, algos[i], json);
        rc = run_cli(exe, dir, args, err, sizeof err);
        printf("  bench --algos %s: exit %d: %s", algos[i], rc, err);
        CHECK(rc != 0, "bench --algos %s out of GPU memory exited 0", algos[i]);
        CHECK(count_lines(err) == 1, "bench --algos %s: %d lines on stderr, want 1", algos[i],
              count_lines(err));
        check_message("bench", err);
        CHECK(strcmp(read_text(json, buf, sizeof buf), GOOD) == 0, "bench changed %s", json);
    }
}

static void in_process(const rc_scene *s) {
    rc_settings st = test_settings(s, SIDE, SIDE, "single-pass", RC_MODE_PAYLOAD);
    st.backend = RC_BACKEND_CUDA;
    rc_renderer *r = NULL;
    rc_error err;
    int rc = rc_renderer_create(s, &st, &r, &err);
    CHECK(rc != 0 && r == NULL, "a renderer was created in too little memory");
    if (rc != 0) {
        printf("  rc_renderer_create: %s\n", err.msg);
        check_message("rc_renderer_create", err.msg);
    }
    rc_renderer_destroy(r);

    give_back();
    r = NULL;
    rc = rc_renderer_create(s, &st, &r, &err);
    CHECK(rc == 0, "after the memory came back: %s", err.msg);
    if (rc == 0) {
        rc = rc_render_frame(r, NULL, &err);
        CHECK(rc == 0, "render after the memory came back: %s", err.msg);
        printf("  after the memory came back: %ux%u payload frame rendered\n", SIDE, SIDE);
    }
    rc_renderer_destroy(r);
}

int main(int argc, char **argv) {
    rc_scene s;
    int started = test_start("test_gpu_oom", argc == 4, "RAYCOMPACT SCENE SCRATCH_DIR",
                             "single-pass", argv, 2, &s);
    if (started != 0) return started;
    mkdir(argv[3], 0755);
    size_t left = hold_all_but(HEADROOM);
    printf("test_gpu_oom: holding %d allocations, %zu MiB left free\n", num_hog, left >> 20);
    CHECK(left < ((size_t)2 << 30), "could not take the GPU's memory: %zu MiB still free",
          left >> 20);
    cli_cases(argv[1], argv[2], argv[3]);
    in_process(&s);
    give_back();
    rc_scene_free(&s);
    return test_finish("test_gpu_oom");
}
